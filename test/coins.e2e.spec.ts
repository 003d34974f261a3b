import { moneyWorld, serviceWorld } from './helpers/world';
import { Actor, aUser, login as logIn, uniqueLogin } from './helpers/actors';
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
  Dec,
} from './helpers/money';
import { startServer, TestServer } from './helpers/server';
import { aFee, percent } from './helpers/commissions';

const COINS = '/api/v1/coins';

describe('coins', () => {
  const world = moneyWorld();
  let otherIssuer: IssuerBody;

  beforeAll(async () => {
    otherIssuer = await anIssuer(world.server, world.admin, (await aCurrency(world.server, world.admin, { fraction: 1 })).code);
  });

  const mainOf = async (user: Actor) => {
    const list = await world.server.request('GET', COINS, { token: user.token });
    return list.body.coins.filter((c: { main: boolean }) => c.main).map((c: { serial: string }) => c.serial);
  };

  it('opens coins for the caller organization; the first of a currency is the main one', async () => {
    const user = await aUser(world.server, world.admin, { role: 'merchant' });
    const created = await world.server.request('POST', COINS, { token: user.token, body: { issuerId: world.issuer.id, name: 'Till' } });
    expectStatus(created, 201);
    expect(created.body.coin).toMatchObject({
      serial: expect.stringMatching(/^[1-9][0-9]*$/),
      name: 'Till',
      amount: '0.00',
      availableAmount: '0.00',
      heldAmount: '0.00',
      issuer: {
        id: world.issuer.id,
        sn: world.issuer.sn,
        currency: world.issuer.currency.code,
        symbol: world.issuer.currency.symbol ?? null,
      },
      currency: world.issuer.currency,
      type: 'client',
      main: true,
      active: true,
    });
    const second = await aCoin(world.server, user.token, world.issuer.id, 'Savings');
    expect(second.main).toBe(false);
    expect(second.serial).not.toBe(created.body.coin.serial);
    const otherCurrency = await aCoin(world.server, user.token, otherIssuer.id, 'Units');
    expect(otherCurrency).toMatchObject({ main: true, amount: 0 });
    const list = await world.server.request('GET', COINS, { token: user.token });
    expectStatus(list, 200);
    expect(Object.keys(list.body)).toContain('coins');
    expect(list.body.coins.map((c: { serial: string }) => c.serial).sort()).toEqual(
      [created.body.coin.serial, second.serial, otherCurrency.serial].sort(),
    );
  });

  it('rejects bad coin requests: unknown issuer 404, malformed 400, unknown fields 400', async () => {
    const user = await aUser(world.server, world.admin);
    expectError(
      await world.server.request('POST', COINS, {
        token: user.token,
        body: { issuerId: '00000000-0000-4000-8000-00000000abcd', name: 'W' },
      }),
      404,
      'exception.issuer.not_found',
    );
    expectError(
      await world.server.request('POST', COINS, { token: user.token, body: { issuerId: 'nope', name: 'W' } }),
      400,
      undefined,
      'issuerId',
    );
    expectError(
      await world.server.request('POST', COINS, { token: user.token, body: { issuerId: world.issuer.id, name: 'W', balance: '1000' } }),
      400,
      'exception.validation',
      'balance',
    );
    expectError(await world.server.request('GET', `${COINS}/abc`, { token: user.token }), 400);
    expectError(await world.server.request('GET', `${COINS}/999999999999`, { token: user.token }), 404, 'exception.coin.not_found');
  });

  it('hides another organization’s coin (404) from GET, PATCH, close, set-main and transfers', async () => {
    const owner = await aUser(world.server, world.admin);
    const stranger = await aUser(world.server, world.admin);
    const coin = await aCoin(world.server, owner.token, world.issuer.id, 'Mine');
    const strangerCoin = await aCoin(world.server, stranger.token, world.issuer.id);
    await fund(world.server, world.admin, coin.serial, '10.00');
    expectError(await world.server.request('GET', `${COINS}/${coin.serial}`, { token: stranger.token }), 404, 'exception.coin.not_found');
    expectError(
      await world.server.request('PATCH', `${COINS}/${coin.serial}`, { token: stranger.token, body: { name: 'Stolen' } }),
      404,
      'exception.coin.not_found',
    );
    expectError(
      await world.server.request('POST', `/api/v1/close/coin/${coin.serial}`, {
        token: stranger.token,
        body: { transferToCoinSerial: strangerCoin.serial },
      }),
      404,
      'exception.coin.not_found',
    );
    expectError(
      await world.server.request('POST', `${COINS}/set-main`, { token: stranger.token, body: { serial: coin.serial } }),
      404,
      'exception.coin.not_found',
    );
    expectError(await transfer(world.server, stranger.token, coin.serial, strangerCoin.serial, '1.00'), 404, 'exception.coin.not_found');
    const list = await world.server.request('GET', COINS, { token: stranger.token });
    expect(list.body.coins.map((c: { serial: string }) => c.serial)).toEqual([strangerCoin.serial]);
    const untouched = await coinOf(world.server, owner.token, coin.serial);
    expect(untouched).toMatchObject({ name: 'Mine', amount: '10.00', active: true });
  });

  it('renames a coin and keeps it active, main and funded', async () => {
    const user = await aUser(world.server, world.admin);
    const coin = await aCoin(world.server, user.token, world.issuer.id, 'Before');
    await fund(world.server, world.admin, coin.serial, '5.00');
    const renamed = await world.server.request('PATCH', `${COINS}/${coin.serial}`, { token: user.token, body: { name: 'After' } });
    expectStatus(renamed, 200);
    expect(renamed.body.coin).toMatchObject({ serial: coin.serial, name: 'After', active: true, main: true, amount: '5.00' });
    expect(await coinOf(world.server, user.token, coin.serial)).toMatchObject({ name: 'After', active: true, main: true });
    const payee = await aCoin(world.server, user.token, world.issuer.id);
    expectStatus(await transfer(world.server, user.token, coin.serial, payee.serial, '1.00'), 201);
    // Setting active is its own act now (issue 9): a renaming alone never changes it, an unknown field is still refused.
    expectError(
      await world.server.request('PATCH', `${COINS}/${coin.serial}`, { token: user.token, body: { name: 'X', balance: '9' } }),
      400,
      'exception.validation',
      'balance',
    );
    expectError(
      await world.server.request('PATCH', `${COINS}/${coin.serial}`, { token: user.token, body: { name: '' } }),
      400,
      undefined,
      'name',
    );
  });

  it('moves the main coin with set-main: one main coin per organization and currency', async () => {
    const user = await aUser(world.server, world.admin, { role: 'merchant' });
    const first = await aCoin(world.server, user.token, world.issuer.id);
    const second = await aCoin(world.server, user.token, world.issuer.id);
    const units = await aCoin(world.server, user.token, otherIssuer.id);
    const set = await world.server.request('POST', `${COINS}/set-main`, { token: user.token, body: { serial: second.serial } });
    expectStatus(set, 200);
    expect(set.body.coin).toMatchObject({ serial: second.serial, main: true });
    expect((await mainOf(user)).sort()).toEqual([second.serial, units.serial].sort());
    expect((await coinOf(world.server, user.token, first.serial)).main).toBe(false);
    // setting the main coin again is harmless
    expectStatus(await world.server.request('POST', `${COINS}/set-main`, { token: user.token, body: { serial: second.serial } }), 200);
    expect((await mainOf(user)).sort()).toEqual([second.serial, units.serial].sort());
    // another organization's main coin is untouched
    const other = await aUser(world.server, world.admin);
    const theirs = await aCoin(world.server, other.token, world.issuer.id);
    expect(await mainOf(other)).toEqual([theirs.serial]);
    expectError(
      await world.server.request('POST', `${COINS}/set-main`, { token: user.token, body: { serial: 'x1' } }),
      400,
      undefined,
      'serial',
    );
  });

  it('keeps exactly one main coin when set-main races', async () => {
    const user = await aUser(world.server, world.admin);
    const coins = [];
    for (let i = 0; i < 6; i++) coins.push(await aCoin(world.server, user.token, world.issuer.id));
    const responses = await Promise.all(
      [...coins, ...coins].map((c) => world.server.request('POST', `${COINS}/set-main`, { token: user.token, body: { serial: c.serial } })),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    expect(await mainOf(user)).toHaveLength(1);
  });

  it('makes exactly one of several coins opened at once the main one', async () => {
    const user = await aUser(world.server, world.admin);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        world.server.request('POST', COINS, { token: user.token, body: { issuerId: world.issuer.id, name: `C${i}` } }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 201));
    expect(responses.filter((r) => r.body.coin.main)).toHaveLength(1);
    expect(await mainOf(user)).toHaveLength(1);
  });

  it('needs COIN_MAIN_STATUS_SETTER for set-main and COIN_CLOSURE for close (403 for cashier and administrator)', async () => {
    const owner = await aUser(world.server, world.admin);
    const coin = await aCoin(world.server, owner.token, world.issuer.id);
    for (const role of ['cashier', 'administrator']) {
      const staff = await aUser(world.server, world.admin, { role });
      expectError(
        await world.server.request('POST', `${COINS}/set-main`, { token: staff.token, body: { serial: coin.serial } }),
        403,
        'exception.access.permission_missing',
      );
      expectError(
        await world.server.request('POST', `/api/v1/close/coin/${coin.serial}`, { token: staff.token, body: {} }),
        403,
        'exception.access.permission_missing',
      );
    }
    expect(await coinOf(world.server, owner.token, coin.serial)).toMatchObject({ active: true, main: true });
  });

  describe('closing', () => {
    let user: Actor;
    beforeAll(async () => {
      user = await aUser(world.server, world.admin);
    });

    it('refuses to close a non-empty coin without a target (409)', async () => {
      const coin = await aCoin(world.server, user.token, world.issuer.id);
      await fund(world.server, world.admin, coin.serial, '3.00');
      expectError(
        await world.server.request('POST', `/api/v1/close/coin/${coin.serial}`, { token: user.token, body: {} }),
        409,
        'exception.coin.not_empty',
      );
      expect(await coinOf(world.server, user.token, coin.serial)).toMatchObject({ active: true, amount: '3.00' });
    });

    it('closes an empty coin without a target', async () => {
      const coin = await aCoin(world.server, user.token, world.issuer.id);
      const closed = await world.server.request('POST', `/api/v1/close/coin/${coin.serial}`, { token: user.token, body: {} });
      expectStatus(closed, 200);
      expect(closed.body.coin).toMatchObject({ serial: coin.serial, active: false, main: false, closedAt: expect.any(String) });
      expect(closed.body.process).toBeNull();
      expectError(
        await world.server.request('POST', `/api/v1/close/coin/${coin.serial}`, { token: user.token, body: {} }),
        409,
        'exception.coin.closed',
      );
    });

    it('moves the balance to the target, then the closed coin takes part in nothing', async () => {
      const other = await aUser(world.server, world.admin);
      const coin = await aCoin(world.server, user.token, world.issuer.id);
      const target = await aCoin(world.server, user.token, world.issuer.id);
      const outsider = await aCoin(world.server, other.token, world.issuer.id);
      await fund(world.server, world.admin, coin.serial, '42.42');
      await fund(world.server, world.admin, outsider.serial, '5.00');
      const closed = await world.server.request('POST', `/api/v1/close/coin/${coin.serial}`, {
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
      expect(await balanceOf(world.server, user.token, target.serial)).toBe('42.42');
      await expectBalancedLedger(world.server, world.admin);

      expectError(await transfer(world.server, user.token, coin.serial, target.serial, '1.00'), 409);
      expectError(await transfer(world.server, other.token, outsider.serial, coin.serial, '1.00'), 409);
      expectError(
        await world.server.request('POST', '/api/v1/bank-top-ups', {
          token: world.admin,
          body: { coinSerial: coin.serial, amount: '1.00' },
        }),
        409,
      );
      expectError(await world.server.request('POST', `${COINS}/set-main`, { token: user.token, body: { serial: coin.serial } }), 409);
      expectError(await world.server.request('PATCH', `${COINS}/${coin.serial}`, { token: user.token, body: { name: 'Zombie' } }), 409);
      expectError(
        await world.server.request('POST', `/api/v1/close/coin/${target.serial}`, {
          token: user.token,
          body: { transferToCoinSerial: coin.serial },
        }),
        409,
      );
      expect(await balanceOf(world.server, user.token, target.serial)).toBe('42.42');
      expect(await balanceOf(world.server, other.token, outsider.serial)).toBe('5.00');
      expect(await coinOf(world.server, user.token, coin.serial)).toMatchObject({ amount: '0.00', active: false });
    });

    it('validates the target: itself 400, other currency 400, unknown 404', async () => {
      const coin = await aCoin(world.server, user.token, world.issuer.id);
      const units = await aCoin(world.server, user.token, otherIssuer.id);
      await fund(world.server, world.admin, coin.serial, '1.00');
      const close = (body: object) => world.server.request('POST', `/api/v1/close/coin/${coin.serial}`, { token: user.token, body });
      expectError(await close({ transferToCoinSerial: coin.serial }), 400, 'exception.validation', 'transferToCoinSerial');
      expectError(await close({ transferToCoinSerial: units.serial }), 400, 'exception.validation', 'transferToCoinSerial');
      expectError(await close({ transferToCoinSerial: '999999999999' }), 404, 'exception.coin.not_found');
      expectError(await close({ transferToCoinSerial: 12 }), 400, 'exception.validation', 'transferToCoinSerial');
      expectError(await close({ target: '1' }), 400, 'exception.validation', 'target');
      expect(await coinOf(world.server, user.token, coin.serial)).toMatchObject({ active: true, amount: '1.00' });
    });
  });
});

describe('staff coin search', () => {
  const world = serviceWorld();

  it('lets COIN_VIEWER staff find any coin, and nobody else', async () => {
    const currency = await world.server.request('POST', '/api/v1/currencies', { token: world.admin, body: { code: 'CHF', name: 'Franc' } });
    const issuer = await world.server.request('POST', '/api/v1/issuers', {
      token: world.admin,
      body: { currencyCode: currency.body.currency.code, name: 'I' },
    });
    const alice = await aUser(world.server, world.admin);
    const opened = await world.server.request('POST', '/api/v1/coins', {
      token: alice.token,
      body: { issuerId: issuer.body.issuer.id, name: 'A' },
    });
    expect(opened.status).toBe(201);
    const found = await world.server.request('POST', '/api/v1/coins/view', {
      token: world.admin,
      body: { filter: { organizationIds: [alice.organizationId] } },
    });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({
      totalRecords: 1,
      records: [{ serial: opened.body.coin.serial, organizationId: alice.organizationId }],
    });
    const cashier = await aUser(world.server, world.admin, { role: 'cashier' });
    expect((await world.server.request('POST', '/api/v1/coins/view', { token: cashier.token, body: {} })).status).toBe(200);
    const denied = await world.server.request('POST', '/api/v1/coins/view', { token: alice.token, body: {} });
    expect(denied.status).toBe(403);
    const bad = await world.server.request('POST', '/api/v1/coins/view', { token: world.admin, body: { filter: { serials: ['abc'] } } });
    expect(bad.status).toBe(400);
  });
});

describe('issue 29: closing a coin into another organization’s coin is priced as a transfer of the remainder', () => {
  const world = moneyWorld();
  const close = (token: string, serial: string, transferToCoinSerial: string) =>
    world.server.request('POST', `/api/v1/close/coin/${serial}`, { token, body: { transferToCoinSerial } });
  const commissionBalance = async (): Promise<string> => {
    const { rows } = await world.raw.db.query(
      `SELECT COALESCE(sum(balance), 0)::text AS balance FROM coins WHERE issuer_id = $1 AND type = 'system' AND system_kind = 'commission'`,
      [world.issuer.id],
    );
    return new Dec(rows[0].balance).toFixed(2);
  };

  it('takes a 1 % transfer fee out of the remainder: the coin ends at 0, the payee gets the rest, GET /transactions shows the fee', async () => {
    const alice = await world.user();
    const bob = await world.user({ role: 'merchant' });
    await aFee(world.server, world.admin, { organizationId: alice.organizationId, issuerId: world.issuer.id, conditions: percent('1') });
    const coin = await world.coin(alice, '100.00');
    const bobs = await world.coin(bob);
    // What a transfer of the whole remainder would cost.
    const quoted = await world.server.request('POST', '/api/v1/transfers/calculate', {
      token: alice.token,
      body: { paymentTool: { type: 'COIN', srcValue: coin.serial, destValue: bobs.serial }, amount: '100.00' },
    });
    expect(quoted.body).toMatchObject({ commission: '1.00' });
    const before = await commissionBalance();

    const closed = await close(alice.token, coin.serial, bobs.serial);
    expectStatus(closed, 200);
    expect(closed.body.coin).toMatchObject({ amount: '0.00', active: false, closedAt: expect.any(String) });
    const process = closed.body.process;
    expect(process).toMatchObject({ type: 'coin_closure', status: 'processed', amount: '100.00', commission: '1.00' });
    expectLegs(process, [
      [coin.serial, bobs.serial, '99.00'],
      [coin.serial, process.transactions[1].to.serial, '1.00'],
    ]);
    expect(new Dec(await commissionBalance()).minus(before).toFixed(2)).toBe('1.00');
    expect(await balanceOf(world.server, bob.token, bobs.serial)).toBe('99.00');
    const read = await world.server.request('GET', `/api/v1/transactions/${process.id}`, { token: alice.token });
    expectStatus(read, 200);
    expect(read.body.process).toMatchObject({ id: process.id, commission: '1.00', amount: '100.00' });
    const { rows } = await world.raw.db.query('SELECT details FROM operations WHERE id = $1', [process.id]);
    expect(rows[0].details.commission).toMatchObject({ payer: 'sender' });

    // Rounded as a transfer is: 1 % of 33.33 is 0.3333, a fee of 0.33.
    const odd = await world.coin(alice, '33.33');
    const oddClosed = await close(alice.token, odd.serial, bobs.serial);
    expectStatus(oddClosed, 200);
    expectLegs(oddClosed.body.process, [
      [odd.serial, bobs.serial, '33.00'],
      [odd.serial, oddClosed.body.process.transactions[1].to.serial, '0.33'],
    ]);
    expect(await balanceOf(world.server, bob.token, bobs.serial)).toBe('132.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('stays free into the owner’s own coin, with the same 1 % transfer rule in force', async () => {
    const alice = await world.user();
    await aFee(world.server, world.admin, { organizationId: alice.organizationId, issuerId: world.issuer.id, conditions: percent('1') });
    const coin = await world.coin(alice, '100.00');
    const mine = await world.coin(alice);
    const before = await commissionBalance();
    const closed = await close(alice.token, coin.serial, mine.serial);
    expectStatus(closed, 200);
    expect(closed.body.process).toMatchObject({ amount: '100.00', commission: '0.00' });
    expectLegs(closed.body.process, [[coin.serial, mine.serial, '100.00']]);
    expect(await balanceOf(world.server, alice.token, mine.serial)).toBe('100.00');
    expect(await commissionBalance()).toBe(before);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('a recipient-paid rule prices it the same; a fee above the remainder is a 409 and nothing moves', async () => {
    const carol = await world.user();
    const dave = await world.user();
    await aFee(world.server, world.admin, {
      organizationId: carol.organizationId,
      issuerId: world.issuer.id,
      conditions: percent('1'),
      payer: 'recipient',
    });
    const coin = await world.coin(carol, '10.00');
    const daves = await world.coin(dave);
    const closed = await close(carol.token, coin.serial, daves.serial);
    expectStatus(closed, 200);
    expectLegs(closed.body.process, [
      [coin.serial, daves.serial, '9.90'],
      [coin.serial, closed.body.process.transactions[1].to.serial, '0.10'],
    ]);
    expect(await balanceOf(world.server, dave.token, daves.serial)).toBe('9.90');

    const erin = await world.user();
    await aFee(world.server, world.admin, {
      organizationId: erin.organizationId,
      issuerId: world.issuer.id,
      conditions: [{ beginAmount: '0', commission: { type: 'fixed', valueFixed: '5.00' } }],
    });
    const small = await world.coin(erin, '3.00');
    expectError(await close(erin.token, small.serial, daves.serial), 409, 'exception.commission.exceeds_amount');
    expect(await coinOf(world.server, erin.token, small.serial)).toMatchObject({ amount: '3.00', active: true, closedAt: null });
    expect(await balanceOf(world.server, dave.token, daves.serial)).toBe('9.90');
    // Into the owner's own coin it still closes, free.
    const own = await world.coin(erin);
    expectStatus(await close(erin.token, small.serial, own.serial), 200);
    expect(await balanceOf(world.server, erin.token, own.serial)).toBe('3.00');
    await expectBalancedLedger(world.server, world.admin);
  });
});

describe('issue 43: the customer directory cannot be walked — payee lookups are limited per user and per address, and name the payee only as a form shows it', () => {
  // 5 lookups per user and 8 per address (a burst, then refilled over the hour); each test calls from an address of its
  // own (X-Forwarded-For, trusted from loopback), so the tests' counts stay apart.
  const LIMITS = { PAYEE_LOOKUPS_PER_HOUR: '5', PAYEE_LOOKUPS_PER_ADDRESS_PER_HOUR: '8', TRUST_PROXY: 'loopback' };
  const world = moneyWorld({ env: LIMITS });
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const validate = (server: TestServer, user: Actor, address: string, serial: string) =>
    server.request('POST', '/api/v1/coins/validate', { token: user.token, headers: from(address), body: { serial } });
  const serialOf = (server: TestServer, user: Actor, address: string, login: string) =>
    server.request('POST', '/api/v1/coins/serial', {
      token: user.token,
      headers: from(address),
      body: { login, currencyCode: world.currency.code },
    });
  const expectLimited = (answer: Awaited<ReturnType<typeof validate>>, most: number) => {
    expectError(answer, 429, 'exception.rate_limited');
    const retry = Number(answer.headers.get('retry-after'));
    expect({ retry, inRange: retry >= 1 && retry <= most }).toEqual({ retry, inRange: true });
  };

  it("answers a payee check with the owner's display name only: a person's first name and initial, a merchant's name, a login masked", async () => {
    const payer = await world.user();
    const alice = await world.user({ name: 'Alice Liddell' });
    const shop = await world.user({ role: 'merchant', name: 'Corner Shop' });
    // Named after its login, as sign-up names a customer.
    const login = `${uniqueLogin('walk')}@example.com`;
    const created = await world.server.request('POST', '/api/v1/users', {
      token: world.admin,
      body: { login, password: 'pw-0123456789ab', role: 'individual' },
    });
    expectStatus(created, 201);
    const named = { token: await logIn(world.raw, login, 'pw-0123456789ab') } as Actor;
    const answers = [];
    for (const owner of [alice, shop, named]) {
      const coin = await aCoin(world.server, owner.token, world.issuer.id);
      const answer = await validate(world.raw, payer, '198.51.100.1', coin.serial);
      expectStatus(answer, 200);
      expect(Object.keys(answer.body).sort()).toEqual(['message', 'owner', 'serial', 'status']);
      expect(Object.keys(answer.body.owner)).toEqual(['name']);
      answers.push(answer.body.owner.name);
    }
    expect(answers).toEqual(['Alice L.', 'Corner Shop', 'w***@e***.com']);
  });

  it('refuses the 6th lookup of a user with a 429 and Retry-After, whether by serial, by login or through a contact, then the 9th of the address', async () => {
    const address = '198.51.100.2';
    const [walker, other] = [await world.user(), await world.user()];
    const real = await world.coin(await world.user());
    // 40 sequential serials around a real one, as the report walked them: 5 are answered (200 or 404), the rest refused.
    const first = BigInt(real.serial) - 20n;
    const statuses: number[] = [];
    for (let i = 0n; i < 40n; i++) {
      const answer = await validate(world.raw, walker, address, (first + i).toString());
      statuses.push(answer.status);
      if (i >= 5n) expectLimited(answer, 720);
    }
    expect(statuses.slice(0, 5).every((s) => s === 200 || s === 404)).toBe(true);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    // The same count for a serial by login, and for a contact's coin (a contact is any e-mail or phone number).
    expectLimited(await serialOf(world.raw, walker, address, other.login), 720);
    const contact = await world.server.request('POST', '/api/v1/contact-book/contact', {
      token: walker.token,
      body: { name: 'Someone', email: 'someone@example.com' },
    });
    expectStatus(contact, 201);
    expectLimited(
      await world.raw.request('GET', `/api/v1/contact-book/contact/${contact.body.contact.id}/coin?currency=${world.currency.code}`, {
        token: walker.token,
        headers: from(address),
      }),
      720,
    );
    // Another account on the same address has its own 5, but the address only 3 more (8 in all): three other logins.
    for (let i = 0; i < 3; i++) expect([200, 404]).toContain((await serialOf(world.raw, other, address, `nobody-${i}@example.com`)).status);
    expectLimited(await serialOf(world.raw, other, address, walker.login), 450);
    // Elsewhere, that account still has lookups left.
    expect([200, 404]).toContain((await serialOf(world.raw, other, '198.51.100.3', walker.login)).status);
  });

  it('counts a transfer calculate as a lookup: it names the payee (paymentToolDetails.recipientFullName), so a walk by calculate meets the 429 too', async () => {
    const address = '198.51.100.5';
    const payer = await world.user();
    const alice = await world.user({ name: 'Alice Liddell' });
    const [paying, paid] = await world.pair(payer, alice, '10.00');
    const body = { paymentTool: { type: 'COIN', srcValue: paying.serial, destValue: paid.serial }, amount: '1.00' };
    const calculate = (destValue: string) =>
      world.raw.request('POST', '/api/v1/transfers/calculate', {
        token: payer.token,
        headers: from(address),
        body: { ...body, paymentTool: { ...body.paymentTool, destValue } },
      });
    const priced = await calculate(paid.serial);
    expectStatus(priced, 200);
    expect(priced.body.paymentToolDetails).toMatchObject({ srcId: paying.serial, destId: paid.serial, recipientFullName: 'Alice L.' });
    // Four more payees (serials next to it, whoever's they are), then a sixth is refused.
    for (let i = 1n; i <= 4n; i++)
      expect([200, 400, 404, 422]).toContain((await calculate((BigInt(paid.serial) + i * 1000n).toString())).status);
    expectLimited(await calculate((BigInt(paid.serial) + 5000n).toString()), 720);
    // The transfer itself names no one and is not limited.
    const sent = await world.raw.request('POST', '/api/v1/transfers', {
      token: payer.token,
      headers: { ...from(address), 'Idempotency-Key': `walk-${paying.serial}` },
      body,
    });
    expectStatus(sent, 201);
  });

  it('holds across instances: the count is kept in PostgreSQL, not in each instance', async () => {
    const second = await startServer({ ...LIMITS, DATABASE_URL: world.raw.databaseUrl });
    servers.push(second);
    const payer = await world.user();
    const coins = [];
    for (let i = 0; i < 7; i++) coins.push(await world.coin(await world.user()));
    for (const [i, server] of [world.raw, second, world.raw, second, second].entries())
      expectStatus(await validate(server, payer, '198.51.100.4', coins[i].serial), 200);
    expectLimited(await validate(world.raw, payer, '198.51.100.4', coins[5].serial), 720);
    expectLimited(await validate(second, payer, '198.51.100.4', coins[6].serial), 720);
  });

  it('counts a payee once an hour: the form’s check and calculation of one payee, and paying the same payees again, cost one lookup each; a refused lookup marks nothing', async () => {
    const address = '198.51.100.6';
    const payer = await world.user();
    const payees = [];
    for (let i = 0; i < 6; i++) payees.push(await world.coin(await world.user()));
    const [paying] = await world.pair(payer, await world.user(), '10.00');
    const calculate = (serial: string) =>
      world.raw.request('POST', '/api/v1/transfers/calculate', {
        token: payer.token,
        headers: from(address),
        body: { paymentTool: { type: 'COIN', srcValue: paying.serial, destValue: serial }, amount: '1.00' },
      });
    // Five payees, each checked, priced and checked again: five lookups, none refused.
    for (const payee of payees.slice(0, 5)) {
      expectStatus(await validate(world.raw, payer, address, payee.serial), 200);
      expectStatus(await calculate(payee.serial), 200);
      expectStatus(await validate(world.raw, payer, address, payee.serial), 200);
    }
    // A sixth payee is refused, and stays refused when asked again (the refusal did not mark it seen).
    expectLimited(await validate(world.raw, payer, address, payees[5].serial), 720);
    expectLimited(await validate(world.raw, payer, address, payees[5].serial), 720);
    // The five already looked up still answer.
    expectStatus(await calculate(payees[0].serial), 200);
  });
});
