import { moneyWorld, MoneyWorld } from './helpers/world';
import { Actor, adminToken, aUser } from './helpers/actors';
import {
  aCoin,
  aCurrency,
  anIssuer,
  balanceOf,
  coinOf,
  expectBalancedLedger,
  expectError,
  expectStatus,
  fund,
  IssuerBody,
  transfer,
  expectLegs,
} from './helpers/money';
import { startServer, TestServer } from './helpers/server';

const COINS = '/api/v1/coins';

describe('coins', () => {
  const world = moneyWorld();
  let server: MoneyWorld['server'];
  let admin: string;
  let issuer: IssuerBody;
  let otherIssuer: IssuerBody;

  beforeAll(async () => {
    ({ server, admin, issuer } = world);
    otherIssuer = await anIssuer(server, admin, (await aCurrency(server, admin, { fraction: 1 })).code);
  });

  const mainOf = async (user: Actor) => {
    const list = await server.request('GET', COINS, { token: user.token });
    return list.body.coins.filter((c: { main: boolean }) => c.main).map((c: { serial: string }) => c.serial);
  };

  it('opens coins for the caller organization; the first of a currency is the main one', async () => {
    const user = await aUser(server, admin, { role: 'merchant' });
    const created = await server.request('POST', COINS, { token: user.token, body: { issuerId: issuer.id, name: 'Till' } });
    expectStatus(created, 201);
    expect(created.body.coin).toMatchObject({
      serial: expect.stringMatching(/^[1-9][0-9]*$/),
      name: 'Till',
      amount: '0.00',
      availableAmount: '0.00',
      heldAmount: '0.00',
      issuer: { id: issuer.id, sn: issuer.sn, currency: issuer.currency.code, symbol: issuer.currency.symbol ?? null },
      currency: issuer.currency,
      type: 'client',
      main: true,
      active: true,
    });
    const second = await aCoin(server, user.token, issuer.id, 'Savings');
    expect(second.main).toBe(false);
    expect(second.serial).not.toBe(created.body.coin.serial);
    const otherCurrency = await aCoin(server, user.token, otherIssuer.id, 'Units');
    expect(otherCurrency).toMatchObject({ main: true, amount: 0 });
    const list = await server.request('GET', COINS, { token: user.token });
    expectStatus(list, 200);
    expect(Object.keys(list.body)).toContain('coins');
    expect(list.body.coins.map((c: { serial: string }) => c.serial).sort()).toEqual(
      [created.body.coin.serial, second.serial, otherCurrency.serial].sort(),
    );
  });

  it('rejects bad coin requests: unknown issuer 404, malformed 400, unknown fields 400', async () => {
    const user = await aUser(server, admin);
    expectError(
      await server.request('POST', COINS, { token: user.token, body: { issuerId: '00000000-0000-4000-8000-00000000abcd', name: 'W' } }),
      404,
      'exception.issuer.not_found',
    );
    expectError(
      await server.request('POST', COINS, { token: user.token, body: { issuerId: 'nope', name: 'W' } }),
      400,
      undefined,
      'issuerId',
    );
    expectError(
      await server.request('POST', COINS, { token: user.token, body: { issuerId: issuer.id, name: 'W', balance: '1000' } }),
      400,
      'exception.validation',
      'balance',
    );
    expectError(await server.request('GET', `${COINS}/abc`, { token: user.token }), 400);
    expectError(await server.request('GET', `${COINS}/999999999999`, { token: user.token }), 404, 'exception.coin.not_found');
  });

  it('hides another organization’s coin (404) from GET, PATCH, close, set-main and transfers', async () => {
    const owner = await aUser(server, admin);
    const stranger = await aUser(server, admin);
    const coin = await aCoin(server, owner.token, issuer.id, 'Mine');
    const strangerCoin = await aCoin(server, stranger.token, issuer.id);
    await fund(server, admin, coin.serial, '10.00');
    expectError(await server.request('GET', `${COINS}/${coin.serial}`, { token: stranger.token }), 404, 'exception.coin.not_found');
    expectError(
      await server.request('PATCH', `${COINS}/${coin.serial}`, { token: stranger.token, body: { name: 'Stolen' } }),
      404,
      'exception.coin.not_found',
    );
    expectError(
      await server.request('POST', `/api/v1/close/coin/${coin.serial}`, {
        token: stranger.token,
        body: { transferToCoinSerial: strangerCoin.serial },
      }),
      404,
      'exception.coin.not_found',
    );
    expectError(
      await server.request('POST', `${COINS}/set-main`, { token: stranger.token, body: { serial: coin.serial } }),
      404,
      'exception.coin.not_found',
    );
    expectError(await transfer(server, stranger.token, coin.serial, strangerCoin.serial, '1.00'), 404, 'exception.coin.not_found');
    const list = await server.request('GET', COINS, { token: stranger.token });
    expect(list.body.coins.map((c: { serial: string }) => c.serial)).toEqual([strangerCoin.serial]);
    const untouched = await coinOf(server, owner.token, coin.serial);
    expect(untouched).toMatchObject({ name: 'Mine', amount: '10.00', active: true });
  });

  it('renames a coin and keeps it active, main and funded', async () => {
    const user = await aUser(server, admin);
    const coin = await aCoin(server, user.token, issuer.id, 'Before');
    await fund(server, admin, coin.serial, '5.00');
    const renamed = await server.request('PATCH', `${COINS}/${coin.serial}`, { token: user.token, body: { name: 'After' } });
    expectStatus(renamed, 200);
    expect(renamed.body.coin).toMatchObject({ serial: coin.serial, name: 'After', active: true, main: true, amount: '5.00' });
    expect(await coinOf(server, user.token, coin.serial)).toMatchObject({ name: 'After', active: true, main: true });
    const payee = await aCoin(server, user.token, issuer.id);
    expectStatus(await transfer(server, user.token, coin.serial, payee.serial, '1.00'), 201);
    // Setting active is its own act now (issue 9): a renaming alone never changes it, an unknown field is still refused.
    expectError(
      await server.request('PATCH', `${COINS}/${coin.serial}`, { token: user.token, body: { name: 'X', balance: '9' } }),
      400,
      'exception.validation',
      'balance',
    );
    expectError(
      await server.request('PATCH', `${COINS}/${coin.serial}`, { token: user.token, body: { name: '' } }),
      400,
      undefined,
      'name',
    );
  });

  it('moves the main coin with set-main: one main coin per organization and currency', async () => {
    const user = await aUser(server, admin, { role: 'merchant' });
    const first = await aCoin(server, user.token, issuer.id);
    const second = await aCoin(server, user.token, issuer.id);
    const units = await aCoin(server, user.token, otherIssuer.id);
    const set = await server.request('POST', `${COINS}/set-main`, { token: user.token, body: { serial: second.serial } });
    expectStatus(set, 200);
    expect(set.body.coin).toMatchObject({ serial: second.serial, main: true });
    expect((await mainOf(user)).sort()).toEqual([second.serial, units.serial].sort());
    expect((await coinOf(server, user.token, first.serial)).main).toBe(false);
    // setting the main coin again is harmless
    expectStatus(await server.request('POST', `${COINS}/set-main`, { token: user.token, body: { serial: second.serial } }), 200);
    expect((await mainOf(user)).sort()).toEqual([second.serial, units.serial].sort());
    // another organization's main coin is untouched
    const other = await aUser(server, admin);
    const theirs = await aCoin(server, other.token, issuer.id);
    expect(await mainOf(other)).toEqual([theirs.serial]);
    expectError(await server.request('POST', `${COINS}/set-main`, { token: user.token, body: { serial: 'x1' } }), 400, undefined, 'serial');
  });

  it('keeps exactly one main coin when set-main races', async () => {
    const user = await aUser(server, admin);
    const coins = [];
    for (let i = 0; i < 6; i++) coins.push(await aCoin(server, user.token, issuer.id));
    const responses = await Promise.all(
      [...coins, ...coins].map((c) => server.request('POST', `${COINS}/set-main`, { token: user.token, body: { serial: c.serial } })),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    expect(await mainOf(user)).toHaveLength(1);
  });

  it('makes exactly one of several coins opened at once the main one', async () => {
    const user = await aUser(server, admin);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        server.request('POST', COINS, { token: user.token, body: { issuerId: issuer.id, name: `C${i}` } }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 201));
    expect(responses.filter((r) => r.body.coin.main)).toHaveLength(1);
    expect(await mainOf(user)).toHaveLength(1);
  });

  it('needs COIN_MAIN_STATUS_SETTER for set-main and COIN_CLOSURE for close (403 for cashier and administrator)', async () => {
    const owner = await aUser(server, admin);
    const coin = await aCoin(server, owner.token, issuer.id);
    for (const role of ['cashier', 'administrator']) {
      const staff = await aUser(server, admin, { role });
      expectError(
        await server.request('POST', `${COINS}/set-main`, { token: staff.token, body: { serial: coin.serial } }),
        403,
        'exception.access.permission_missing',
      );
      expectError(
        await server.request('POST', `/api/v1/close/coin/${coin.serial}`, { token: staff.token, body: {} }),
        403,
        'exception.access.permission_missing',
      );
    }
    expect(await coinOf(server, owner.token, coin.serial)).toMatchObject({ active: true, main: true });
  });

  describe('closing', () => {
    let user: Actor;
    beforeAll(async () => {
      user = await aUser(server, admin);
    });

    it('refuses to close a non-empty coin without a target (409)', async () => {
      const coin = await aCoin(server, user.token, issuer.id);
      await fund(server, admin, coin.serial, '3.00');
      expectError(
        await server.request('POST', `/api/v1/close/coin/${coin.serial}`, { token: user.token, body: {} }),
        409,
        'exception.coin.not_empty',
      );
      expect(await coinOf(server, user.token, coin.serial)).toMatchObject({ active: true, amount: '3.00' });
    });

    it('closes an empty coin without a target', async () => {
      const coin = await aCoin(server, user.token, issuer.id);
      const closed = await server.request('POST', `/api/v1/close/coin/${coin.serial}`, { token: user.token, body: {} });
      expectStatus(closed, 200);
      expect(closed.body.coin).toMatchObject({ serial: coin.serial, active: false, main: false, closedAt: expect.any(String) });
      expect(closed.body.process).toBeNull();
      expectError(
        await server.request('POST', `/api/v1/close/coin/${coin.serial}`, { token: user.token, body: {} }),
        409,
        'exception.coin.closed',
      );
    });

    it('moves the balance to the target, then the closed coin takes part in nothing', async () => {
      const other = await aUser(server, admin);
      const coin = await aCoin(server, user.token, issuer.id);
      const target = await aCoin(server, user.token, issuer.id);
      const outsider = await aCoin(server, other.token, issuer.id);
      await fund(server, admin, coin.serial, '42.42');
      await fund(server, admin, outsider.serial, '5.00');
      const closed = await server.request('POST', `/api/v1/close/coin/${coin.serial}`, {
        token: user.token,
        body: { transferToCoinSerial: target.serial },
      });
      expectStatus(closed, 200);
      expect(closed.body.coin).toMatchObject({ active: false, main: false, amount: '0.00' });
      expect(closed.body.process).toMatchObject({
        type: 'coin_closure',
        amount: '42.42',
        from: { serial: coin.serial },
        to: { serial: target.serial },
      });
      expectLegs(closed.body.process, [[coin.serial, target.serial, '42.42']]);
      expect(await balanceOf(server, user.token, target.serial)).toBe('42.42');
      await expectBalancedLedger(server, admin);

      expectError(await transfer(server, user.token, coin.serial, target.serial, '1.00'), 409);
      expectError(await transfer(server, other.token, outsider.serial, coin.serial, '1.00'), 409);
      expectError(
        await server.request('POST', '/api/v1/bank-top-ups', { token: admin, body: { coinSerial: coin.serial, amount: '1.00' } }),
        409,
      );
      expectError(await server.request('POST', `${COINS}/set-main`, { token: user.token, body: { serial: coin.serial } }), 409);
      expectError(await server.request('PATCH', `${COINS}/${coin.serial}`, { token: user.token, body: { name: 'Zombie' } }), 409);
      expectError(
        await server.request('POST', `/api/v1/close/coin/${target.serial}`, {
          token: user.token,
          body: { transferToCoinSerial: coin.serial },
        }),
        409,
      );
      expect(await balanceOf(server, user.token, target.serial)).toBe('42.42');
      expect(await balanceOf(server, other.token, outsider.serial)).toBe('5.00');
      expect(await coinOf(server, user.token, coin.serial)).toMatchObject({ amount: '0.00', active: false });
    });

    it('validates the target: itself 400, other currency 400, unknown 404', async () => {
      const coin = await aCoin(server, user.token, issuer.id);
      const units = await aCoin(server, user.token, otherIssuer.id);
      await fund(server, admin, coin.serial, '1.00');
      const close = (body: object) => server.request('POST', `/api/v1/close/coin/${coin.serial}`, { token: user.token, body });
      expectError(await close({ transferToCoinSerial: coin.serial }), 400, 'exception.validation', 'transferToCoinSerial');
      expectError(await close({ transferToCoinSerial: units.serial }), 400, 'exception.validation', 'transferToCoinSerial');
      expectError(await close({ transferToCoinSerial: '999999999999' }), 404, 'exception.coin.not_found');
      expectError(await close({ transferToCoinSerial: 12 }), 400, 'exception.validation', 'transferToCoinSerial');
      expectError(await close({ target: '1' }), 400, 'exception.validation', 'target');
      expect(await coinOf(server, user.token, coin.serial)).toMatchObject({ active: true, amount: '1.00' });
    });
  });
});

describe('staff coin search', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startServer();
    admin = await adminToken(server);
  });
  afterAll(() => server.stop());

  it('lets COIN_VIEWER staff find any coin, and nobody else', async () => {
    const currency = await server.request('POST', '/api/v1/currencies', { token: admin, body: { code: 'CHF', name: 'Franc' } });
    const issuer = await server.request('POST', '/api/v1/issuers', {
      token: admin,
      body: { currencyCode: currency.body.currency.code, name: 'I' },
    });
    const alice = await aUser(server, admin);
    const opened = await server.request('POST', '/api/v1/coins', {
      token: alice.token,
      body: { issuerId: issuer.body.issuer.id, name: 'A' },
    });
    expect(opened.status).toBe(201);
    const found = await server.request('POST', '/api/v1/coins/view', {
      token: admin,
      body: { filter: { organizationIds: [alice.organizationId] } },
    });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({
      totalRecords: 1,
      records: [{ serial: opened.body.coin.serial, organizationId: alice.organizationId }],
    });
    const cashier = await aUser(server, admin, { role: 'cashier' });
    expect((await server.request('POST', '/api/v1/coins/view', { token: cashier.token, body: {} })).status).toBe(200);
    const denied = await server.request('POST', '/api/v1/coins/view', { token: alice.token, body: {} });
    expect(denied.status).toBe(403);
    const bad = await server.request('POST', '/api/v1/coins/view', { token: admin, body: { filter: { serials: ['abc'] } } });
    expect(bad.status).toBe(400);
  });
});
