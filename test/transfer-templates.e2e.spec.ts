import { aCurrency, anIssuer, balanceOf, expectError, expectStatus, fund, transfer, aWholeFirstPage } from './helpers/money';
import { moneyWorld } from './helpers/world';

const BASE = '/api/v1/templates/transfer';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('transfer templates', () => {
  const world = moneyWorld();
  const alice = world.suiteUser();
  const bob = world.suiteUser({ role: 'merchant' });
  const a1 = world.suiteCoin(alice);
  const b1 = world.suiteCoin(bob);
  /** The bank-settlement coin of the world's issuer: a technical coin. */
  let settlement: string;

  beforeAll(async () => {
    settlement = (await fund(world.server, world.admin, a1.serial, '100.00')).from.serial;
  });

  const create = (token: string, body: object) => world.server.request('POST', BASE, { token, body });
  const view = (token: string, body: object = {}) => world.server.request('POST', `${BASE}/view`, { token, body });
  const remove = (token: string, id: string) => world.server.request('DELETE', `${BASE}/${id}`, { token });
  const template = (name: string, extra: object = {}) => ({ name, payerCoin: a1.serial, payeeCoin: b1.serial, amount: '12.50', ...extra });

  it('saves a transfer from one of the caller’s coins, checked as a transfer would be', async () => {
    const response = await create(alice.token, template('Rent', { amount: 45, description: 'Flat', customInformation: '{"ref":7}' }));
    expectStatus(response, 201);
    expect(response.body).toEqual({
      status: 'ok',
      message: 'Template saved',
      template: {
        id: expect.stringMatching(UUID),
        name: 'Rent',
        payerCoin: a1.serial,
        payeeCoin: b1.serial,
        amount: '45.00',
        currency: world.currency.code,
        symbol: null,
        description: 'Flat',
        customInformation: '{"ref":7}',
        createdAt: expect.any(String),
        type: 'TRANSFER',
        paymentToolDetails: {
          type: 'COIN',
          srcId: a1.serial,
          srcValue: a1.serial,
          destId: b1.serial,
          destValue: b1.serial,
          // Bob's merchant as a payee check names it (a person would be `First L.`).
          recipientFullName: 'Test merchant',
          currency: world.currency.code,
          symbol: null,
        },
        // The paying coin as GET /coins/{serial} answers it; the receiving coin (Bob's) only by serial and issuer.
        senderCoin: (await world.server.request('GET', `/api/v1/coins/${a1.serial}`, { token: alice.token })).body.coin,
        recipientCoin: {
          serial: b1.serial,
          issuer: { id: world.issuer.id, sn: expect.any(Number), currency: world.currency.code, symbol: null },
          type: 'client',
        },
      },
    });
    expect(response.text).toContain('"amount":45.00,');
    // A template moves nothing: the client sends POST /transfers with its values.
    expect(await balanceOf(world.server, alice.token, a1.serial)).toBe('100.00');
    const t = response.body.template;
    const sent = await transfer(world.server, alice.token, t.payerCoin, t.payeeCoin, t.amount, {
      description: t.description,
      customInformation: t.customInformation,
    });
    expectStatus(sent, 201);
    expect(await balanceOf(world.server, alice.token, a1.serial)).toBe('55.00');
  });

  it('answers 404 when the payer coin is not the caller’s or does not exist, 400 for a technical coin', async () => {
    expectError(
      await create(alice.token, template('Not mine', { payerCoin: b1.serial, payeeCoin: a1.serial })),
      404,
      'exception.coin.not_found',
    );
    expectError(await create(alice.token, template('Nowhere', { payeeCoin: '999999999999' })), 404, 'exception.coin.not_found');
    // A technical coin is refused as in POST /transfers: a 400 naming the field (issue 11).
    expectError(await create(alice.token, template('Technical', { payeeCoin: settlement })), 400, 'exception.validation', 'payeeCoin');
    expectError(
      await create(alice.token, template('Technical payer', { payerCoin: settlement, payeeCoin: a1.serial })),
      400,
      'exception.validation',
      'payerCoin',
    );
  });

  it('refuses another currency, a bad amount, the same coin twice or unknown fields (400), and closed coins (409)', async () => {
    const other = await aCurrency(world.server, world.admin);
    const issuer = await anIssuer(world.server, world.admin, other.code);
    const foreign = await world.coin(bob, undefined, issuer.id);
    expectError(await create(alice.token, template('Foreign', { payeeCoin: foreign.serial })), 400, 'exception.validation', 'payeeCoin');
    for (const amount of ['12.345', '0', '-1', 'ten', 0.001]) {
      expectError(await create(alice.token, template('Amount', { amount })), 400, 'exception.validation', 'amount');
    }
    expectError(await create(alice.token, template('Loop', { payeeCoin: a1.serial })), 400, 'exception.validation', 'payeeCoin');
    expectError(await create(alice.token, template('Extra', { userId: bob.id })), 400, 'exception.validation', 'userId');
    expectError(await create(alice.token, template('')), 400, 'exception.validation', 'name');
    expectError(await create(alice.token, template('x'.repeat(101))), 400, 'exception.validation', 'name');
    expectError(await create(alice.token, template('Long', { description: 'd'.repeat(501) })), 400, 'exception.validation', 'description');
    expectError(await create(alice.token, { name: 'Partial', payerCoin: a1.serial }), 400, 'exception.validation', 'payeeCoin');
    expectError(await create(alice.token, template('Serial', { payerCoin: '01' })), 400, 'exception.validation', 'payerCoin');

    const closed = await world.coin(bob);
    expectStatus(await world.server.request('POST', `/api/v1/close/coin/${closed.serial}`, { token: bob.token, body: {} }), 200);
    expectError(await create(alice.token, template('Closed', { payeeCoin: closed.serial })), 409, 'exception.coin.closed');
  });

  it('keeps names unique per owner whatever their case (409)', async () => {
    expectStatus(await create(alice.token, template('Gym')), 201);
    expectError(await create(alice.token, template('GYM')), 409, 'exception.transfer_template.name_taken');
    const bobsCoin = await world.coin(bob);
    expectStatus(await create(bob.token, { name: 'Gym', payerCoin: bobsCoin.serial, payeeCoin: a1.serial, amount: '1' }), 201);
  });

  it('lists only the caller’s templates in the paging envelope, filtered and sorted', async () => {
    const carol = await world.user();
    const c1 = await world.coin(carol);
    const c2 = await world.coin(carol);
    const body = (name: string, payerCoin: string, payeeCoin: string) => ({ name, payerCoin, payeeCoin, amount: '1.00' });
    for (const t of [body('Water', c1.serial, b1.serial), body('Internet', c2.serial, b1.serial), body('Savings', c1.serial, c2.serial)]) {
      expectStatus(await create(carol.token, t), 201);
    }
    const all = await view(carol.token);
    expectStatus(all, 200);
    expect(all.body).toEqual(aWholeFirstPage(3));
    const names = (r: { body: { records: { name: string }[] } }) => r.body.records.map((t) => t.name);
    expect(names(all)).toEqual(['Internet', 'Savings', 'Water']);
    expect(names(await view(carol.token, { filter: { payerCoins: [c1.serial] } }))).toEqual(['Savings', 'Water']);
    expect(names(await view(carol.token, { filter: { payeeCoins: [c2.serial] } }))).toEqual(['Savings']);
    expect(names(await view(carol.token, { filter: { name: 'er' } }))).toEqual(['Internet', 'Water']);
    expect(names(await view(carol.token, { sort: { createdAt: 'desc' } }))).toEqual(['Savings', 'Internet', 'Water']);
    const page = await view(carol.token, { pageNumber: 1, pageSize: 2, sort: { name: 'desc' } });
    expect(page.body).toMatchObject({ pageNumber: 1, pageSize: 2, totalRecords: 3, totalPages: 2 });
    expect(names(page)).toEqual(['Internet']);
    expectError(await view(carol.token, { filter: { payer: c1.serial } }), 400, 'exception.validation', 'filter.payer');
    expectError(await view(carol.token, { filter: { payerCoins: ['abc'] } }), 400, 'exception.validation', 'filter.payerCoins');
    // Nobody else sees them.
    expect(names(await view(bob.token, { filter: { name: 'Water' } }))).toEqual([]);
  });

  it('deletes the caller’s own template only (404 for anyone else’s)', async () => {
    const saved = (await create(alice.token, template('Delete me'))).body.template;
    expectError(await remove(bob.token, saved.id), 404, 'exception.transfer_template.not_found');
    const colleague = await world.user({ organizationId: alice.organizationId });
    expectError(await remove(colleague.token, saved.id), 404, 'exception.transfer_template.not_found');
    const deleted = await remove(alice.token, saved.id);
    expectStatus(deleted, 200);
    expect(deleted.body).toEqual({ status: 'ok', message: 'Template deleted', template: saved });
    expectError(await remove(alice.token, saved.id), 404, 'exception.transfer_template.not_found');
    expectError(await remove(alice.token, UNKNOWN), 404, 'exception.transfer_template.not_found');
    expectError(await remove(alice.token, 'nope'), 400, 'exception.validation', 'id');
    expectError(await view(world.admin), 403, 'exception.access.permission_missing');
  });

  it('keeps amounts exact at a fraction of 10^18', async () => {
    const atto = await aCurrency(world.server, world.admin, { fraction: '1000000000000000000' });
    const issuer = await anIssuer(world.server, world.admin, atto.code);
    const payer = await world.coin(alice, undefined, issuer.id);
    const payee = await world.coin(bob, undefined, issuer.id);
    const response = await world.server.request('POST', BASE, {
      token: alice.token,
      rawBody: `{"name":"Atto","payerCoin":"${payer.serial}","payeeCoin":"${payee.serial}","amount":12345678901234567.000000000000000001}`,
      headers: { 'content-type': 'application/json' },
    });
    expectStatus(response, 201);
    expect(response.text).toContain('"amount":12345678901234567.000000000000000001,');
    expect(response.body.template.amount).toBe('12345678901234567.000000000000000001');
    const listed = await view(alice.token, { filter: { name: 'Atto' } });
    expect(listed.text).toContain('"amount":12345678901234567.000000000000000001,');
    expectError(
      await create(alice.token, { name: 'Too fine', payerCoin: payer.serial, payeeCoin: payee.serial, amount: '0.0000000000000000001' }),
      400,
      'exception.validation',
      'amount',
    );
  });
});

describe('transfer templates: saving one to a coin typed in is a payee lookup (the customer directory cannot be walked)', () => {
  // As in coins.e2e.spec.ts: 5 lookups per user, 8 per address, each test from an address of its own.
  const world = moneyWorld({ env: { PAYEE_LOOKUPS_PER_HOUR: '5', PAYEE_LOOKUPS_PER_ADDRESS_PER_HOUR: '8', TRUST_PROXY: 'loopback' } });
  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('counts each save to a typed coin with POST /coins/validate: the 6th is a 429 with Retry-After; names show as a payee check shows them', async () => {
    const address = '198.51.100.21';
    const walker = await world.user();
    const payee = await world.user({ name: 'Alice Liddell' });
    const [own, real] = await world.pair(walker, payee, '10.00');
    // A transfer done before: saving it as a template is no lookup (the payee is one the caller paid).
    const paid = await transfer(world.server, walker.token, own.serial, real.serial, '1.00');
    expectStatus(paid, 201);
    const save = (name: string, payeeCoin: string) =>
      world.server.request('POST', BASE, {
        token: walker.token,
        headers: from(address),
        body: { name, payerCoin: own.serial, payeeCoin, amount: '1' },
      });
    const first = await save('Alice', real.serial);
    expectStatus(first, 201);
    expect(first.body.template.paymentToolDetails.recipientFullName).toBe('Alice L.');
    expect(first.text).not.toContain('Liddell');
    // Serials walked around the real one: 4 more are answered (201, 400 or 404), then 429.
    const statuses: number[] = [];
    for (let i = 1n; i <= 6n; i++) statuses.push((await save(`Walk ${i}`, (BigInt(real.serial) + i).toString())).status);
    expect(statuses.slice(0, 4).every((s) => [201, 400, 404].includes(s))).toBe(true);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const limited = await save('Walk 7', (BigInt(real.serial) + 7n).toString());
    expectError(limited, 429, 'exception.rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // A payee looked up within the hour is not counted again: saving another template to Alice's coin still works.
    expectStatus(await save('Alice again', real.serial), 201);
    // The same count as a payee check.
    expectError(
      await world.server.request('POST', '/api/v1/coins/validate', {
        token: walker.token,
        headers: from(address),
        body: { serial: (BigInt(real.serial) + 8n).toString() },
      }),
      429,
      'exception.rate_limited',
    );
    // Listing, changing and saving a done transfer look nothing up.
    expect(
      (await world.server.request('GET', BASE, { token: walker.token, headers: from(address) })).body.transferTemplates.length,
    ).toBeGreaterThan(0);
    const operation = await world.server.request('POST', `${BASE}/operation/${paid.body.process.id}`, {
      token: walker.token,
      headers: from(address),
      body: { name: 'Paid before' },
    });
    expectStatus(operation, 201);
    expect(operation.body.template.paymentToolDetails.recipientFullName).toBe('Alice L.');
  });
});
