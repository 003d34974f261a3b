import { expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * Issue 32: the family's staff screens of currencies and issuers, the wallets of a user's profile and of the top-up
 * screen, and the client's translations of error codes, replayed with the bodies the client sends.
 */
describe('family client: currencies, issuers, an organization’s coins, translations (issue 32)', () => {
  const world = moneyWorld();
  const post = (path: string, token: string, body: Record<string, unknown>) =>
    world.server.request('POST', `/api/v1${path}`, { token, body });

  it("POST /currencies — the currency form's body (code, digitalCode, symbol, name, description)", async () => {
    const created = await post('/currencies', world.admin, {
      code: 'NOK',
      digitalCode: '578',
      symbol: 'kr',
      name: 'Norwegian krone',
      description: 'Norway',
    });
    expectStatus(created, 201);
    expect(created.body.currency).toMatchObject({
      code: 'NOK',
      digitalCode: '578',
      symbol: 'kr',
      name: 'Norwegian krone',
      description: 'Norway',
    });
    // The currency table lists it.
    const list = await world.server.request('GET', '/api/v1/currencies', { token: world.admin });
    expect(list.body.currencies).toContainEqual(expect.objectContaining({ code: 'NOK', name: 'Norwegian krone', symbol: 'kr' }));
    expectError(
      await post('/currencies', world.admin, { code: 'NOK', digitalCode: '579', symbol: 'kr', name: 'Again', description: 'x' }),
      409,
      'exception.currency.code_taken',
    );
    expectError(
      await post('/currencies', world.admin, { code: 'nok', digitalCode: '57', symbol: 'kr', name: 'x', description: 'x' }),
      400,
      'exception.validation',
      'code',
    );
  });

  it("POST /issuers — the issuer form's body: snPrefix is the issuer's sn; orderNumber and orderQuote as null", async () => {
    const sn = Number(world.issuer.sn) + 1;
    const body = {
      snPrefix: String(sn),
      currencyCode: world.currency.code,
      name: 'Second issuer',
      description: 'By hand',
      active: true,
      orderNumber: null,
      orderQuote: null,
    };
    const created = await post('/issuers', world.admin, body);
    expectStatus(created, 201);
    expect(created.body.issuer).toMatchObject({ sn, name: 'Second issuer', active: true, currencyCode: world.currency.code });
    // The issuers table reads name, currency.name, sn, active, id.
    const list = await world.server.request('GET', '/api/v1/issuers', { token: world.admin });
    expect(list.body.records).toContainEqual(
      expect.objectContaining({
        id: created.body.issuer.id,
        name: 'Second issuer',
        sn,
        active: true,
        currency: expect.objectContaining({ name: world.currency.name }),
      }),
    );
    // The number is the issuer's own: taken again is a 409; the next issuer without one gets a free number.
    expectError(await post('/issuers', world.admin, { ...body, name: 'Third' }), 409, 'exception.issuer.sn_taken');
    const next = await post('/issuers', world.admin, { currencyCode: world.currency.code, name: 'Numbered by the service' });
    expectStatus(next, 201);
    expect([Number(world.issuer.sn), sn]).not.toContain(next.body.issuer.sn);
    // Bad input: not a number, a removed field with a value; nothing is created.
    expectError(await post('/issuers', world.admin, { ...body, snPrefix: 'A1', name: 'Bad' }), 400, 'exception.validation', 'snPrefix');
    expectError(
      await post('/issuers', world.admin, { ...body, snPrefix: '9911', orderNumber: '3', name: 'Bad' }),
      400,
      'exception.validation',
      'orderNumber',
    );
    expectError(
      await post('/issuers', world.admin, { ...body, snPrefix: '9913', currencyCode: 'XYZ', name: 'Bad' }),
      404,
      'exception.currency.not_found',
    );
    const after = await world.server.request('GET', '/api/v1/issuers', { token: world.admin });
    expect(after.body.records.filter((i: { name: string }) => i.name === 'Bad')).toEqual([]);
    expectError(await post('/issuers', (await world.user()).token, { ...body, snPrefix: '9912' }), 403);
  });

  it("GET /organizations/{id}/coins — the top-up screen (accountant) and a user's profile (staff) read the wallets", async () => {
    const ann = await world.user();
    const coin = await world.coin(ann, '12.50');
    for (const role of ['accountant', 'compliance_manager', 'administrator']) {
      const staff = await world.user({ role });
      const coins = await world.server.request('GET', `/api/v1/organizations/${ann.organizationId}/coins`, { token: staff.token });
      expectStatus(coins, 200);
      expect(coins.body.coins).toHaveLength(1);
      expect(coins.body.coins[0]).toMatchObject({
        serial: coin.serial,
        name: expect.any(String),
        amount: '12.50',
        availableAmount: '12.50',
        // Declared by the client's coin type: nothing held, so the future balance is the balance; no credit.
        futureAmount: '12.50',
        creditLimit: '0.00',
        issuer: { id: world.issuer.id, currency: world.currency.code },
      });
    }
    expectError(
      await world.server.request('GET', `/api/v1/organizations/${ann.organizationId}/coins`, { token: (await world.user()).token }),
      404,
      'exception.organization.not_found',
    );
  });

  it('GET /i18n/export/{locale}.{type} — the client merges the messages by error code, without a token', async () => {
    const en = await world.server.request('GET', '/api/v1/i18n/export/en.json');
    expectStatus(en, 200);
    expect(en.body).toMatchObject({
      'exception.bank_account.not_approved': 'Withdrawals go only to an approved bank account',
      'exception.issuer.sn_taken': 'Another issuer has this serial number',
    });
    expect(Object.values(en.body).every((m) => typeof m === 'string')).toBe(true);
    // A locale without messages of its own answers English; a type other than json is a 404.
    expect((await world.server.request('GET', '/api/v1/i18n/export/de.json')).body).toEqual(en.body);
    expectError(await world.server.request('GET', '/api/v1/i18n/export/en.property'), 404, 'exception.not_found');
  });
});
