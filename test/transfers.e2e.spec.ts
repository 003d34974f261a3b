import { moneyWorld } from './helpers/world';
import { aUser } from './helpers/actors';
import {
  aCoin,
  aCurrency,
  anIssuer,
  balanceOf,
  CoinBody,
  expectBalancedLedger,
  expectError,
  expectStatus,
  fund,
  transfer,
  expectLegs,
} from './helpers/money';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const JSON_HEADERS = { 'content-type': 'application/json' };

describe('transfers and bank top-ups', () => {
  const world = moneyWorld();
  const alice = world.suiteUser();
  const bob = world.suiteUser({ role: 'merchant' });

  const pair = (amount = '100.00'): Promise<[CoinBody, CoinBody]> => world.pair(alice, bob, amount);

  it('moves money and answers the operation as process, with customInformation', async () => {
    const [a, b] = await pair();
    const response = await transfer(world.server, alice.token, a.serial, b.serial, '12.34', {
      description: 'Dinner',
      customInformation: '{"order":"A-17"}',
    });
    expectStatus(response, 201);
    const process = response.body.process;
    expect(response.body.status).toBe('ok');
    expect(process).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'client_transaction_transfer',
      status: 'processed',
      description: 'Dinner',
      customInformation: '{"order":"A-17"}',
      amount: '12.34',
      commission: '0.00',
      from: { serial: a.serial },
      to: { serial: b.serial },
    });
    expect(process.createdAt).toMatch(ISO_UTC);
    expect(process.updatedAt).toMatch(ISO_UTC);
    for (const key of ['requestIdentifier', 'requestStatus']) expect(Object.keys(process)).toContain(key);
    expectLegs(process, [[a.serial, b.serial, '12.34']]);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('87.66');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('12.34');
    const read = await world.server.request('GET', `/api/v1/transactions/${process.id}`, { token: bob.token });
    expect(read.body.process).toEqual(process);
  });

  it('accepts the amount as a JSON number', async () => {
    const [a, b] = await pair();
    expectStatus(await transfer(world.server, alice.token, a.serial, b.serial, 12.5), 201);
    const raw = await world.server.request('POST', '/api/v1/transfers', {
      token: alice.token,
      rawBody: `{"paymentTool":{"type":"COIN","srcValue":"${a.serial}","destValue":"${b.serial}"},"amount":0.10}`,
      headers: JSON_HEADERS,
    });
    expectStatus(raw, 201);
    expect(raw.body.process.amount).toBe('0.10');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('12.60');
  });

  it('calculates what payer and payee would see without moving money', async () => {
    const [a, b] = await pair('50.00');
    const body = { paymentTool: { type: 'COIN', srcValue: a.serial, destValue: b.serial }, amount: '10.5' };
    const response = await world.server.request('POST', '/api/v1/transfers/calculate', { token: alice.token, body });
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ status: 'ok', payerAmount: '10.50', payeeAmount: '10.50', commission: '0.00' });
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('50.00');
    const { rows } = await world.server.db.query('SELECT count(*)::int AS n FROM operations WHERE from_coin = $1', [a.serial]);
    expect(rows[0].n).toBe(0);
    expectError(
      await world.server.request('POST', '/api/v1/transfers/calculate', { token: alice.token, body: { ...body, amount: '1.001' } }),
      400,
      'exception.validation',
      'amount',
    );
    expectError(
      await world.server.request('POST', '/api/v1/transfers/calculate', {
        token: alice.token,
        body: { ...body, paymentTool: { ...body.paymentTool, destValue: '999999999999' } },
      }),
      404,
    );
  });

  describe('refuses invalid transfers with 400', () => {
    let a: CoinBody;
    let b: CoinBody;
    let units: CoinBody;
    beforeAll(async () => {
      [a, b] = await pair();
      const unitsIssuer = await anIssuer(world.server, world.admin, (await aCurrency(world.server, world.admin, { fraction: 1 })).code);
      units = await aCoin(world.server, bob.token, unitsIssuer.id);
    });

    it.each([
      ['zero', '0'],
      ['zero with decimals', '0.00'],
      ['zero as a number', 0],
      ['negative', '-5.00'],
      ['negative as a number', -5],
      ['three decimals', '1.001'],
      ['three decimals as a number', 1.001],
      ['text', 'ten'],
      ['an exponent string', '1e3'],
      ['empty', ''],
      ['a boolean', true],
      ['null', null],
    ])('an amount that is %s', async (_, amount) => {
      expectError(await transfer(world.server, alice.token, a.serial, b.serial, amount as string), 400, 'exception.validation', 'amount');
    });

    it('the same coin on both sides', async () => {
      expectError(await transfer(world.server, alice.token, a.serial, a.serial, '1.00'), 400, 'exception.validation');
    });

    it('coins of different currencies', async () => {
      expectError(
        await transfer(world.server, alice.token, a.serial, units.serial, '1'),
        400,
        'exception.validation',
        'paymentTool.destValue',
      );
    });

    it('a malformed body: no paymentTool, another tool type, unknown fields, malformed serials, long customInformation', async () => {
      const base = { paymentTool: { type: 'COIN', srcValue: a.serial, destValue: b.serial }, amount: '1.00' };
      const send = (body: unknown) => world.server.request('POST', '/api/v1/transfers', { token: alice.token, body });
      expectError(await send({ amount: '1.00' }), 400, 'exception.validation', 'paymentTool');
      expectError(
        await send({ ...base, paymentTool: { ...base.paymentTool, type: 'CARD' } }),
        400,
        'exception.validation',
        'paymentTool.type',
      );
      expectError(await send({ ...base, paymentTool: { ...base.paymentTool, srcValue: 'abc' } }), 400, undefined, 'paymentTool.srcValue');
      expectError(await send({ ...base, paymentTool: { ...base.paymentTool, extra: 1 } }), 400, undefined, 'paymentTool.extra');
      expectError(await send({ ...base, status: 'processed' }), 400, 'exception.validation', 'status');
      expectError(await send({ ...base, customInformation: 'x'.repeat(1001) }), 400, 'exception.validation', 'customInformation');
      expectError(await send({ ...base, description: 'x'.repeat(501) }), 400, 'exception.validation', 'description');
      expectError(await send([base]), 400);
    });

    afterAll(async () => {
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('100.00');
    });
  });

  it('answers an unknown payer or payee coin with 404, a technical one with 400, and lets anyone receive', async () => {
    const [a, b] = await pair();
    expectError(await transfer(world.server, alice.token, '999999999999', b.serial, '1.00'), 404, 'exception.coin.not_found');
    expectError(await transfer(world.server, alice.token, a.serial, '999999999999', '1.00'), 404, 'exception.coin.not_found');
    // paying from someone else's coin is not possible
    expectError(await transfer(world.server, alice.token, b.serial, a.serial, '1.00'), 404, 'exception.coin.not_found');
    // a technical (system) coin is neither payee nor payer: 400, as the calculation answers (specification section 7)
    const { rows } = await world.server.db.query(`SELECT serial::text AS serial FROM coins WHERE type = 'system' LIMIT 1`);
    expectError(
      await transfer(world.server, alice.token, a.serial, rows[0].serial, '1.00'),
      400,
      'exception.validation',
      'paymentTool.destValue',
    );
    expectError(
      await transfer(world.server, alice.token, rows[0].serial, b.serial, '1.00'),
      400,
      'exception.validation',
      'paymentTool.srcValue',
    );
    expectStatus(await transfer(world.server, alice.token, a.serial, b.serial, '1.00'), 201);
  });

  it('answers insufficient funds with 409 and moves nothing', async () => {
    const [a, b] = await pair('5.00');
    expectError(await transfer(world.server, alice.token, a.serial, b.serial, '5.01'), 409, 'exception.coin.insufficient_funds');
    expectStatus(await transfer(world.server, alice.token, a.serial, b.serial, '5.00'), 201);
    expectError(await transfer(world.server, alice.token, a.serial, b.serial, '0.01'), 409, 'exception.coin.insufficient_funds');
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('0.00');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('5.00');
  });

  it('answers 409 while the issuer is deactivated (PATCH /issuers), for payer and payee', async () => {
    const ownIssuer = await anIssuer(world.server, world.admin, world.issuer.currency.code, 'Shaky bank');
    const a = await aCoin(world.server, alice.token, ownIssuer.id);
    const b = await aCoin(world.server, bob.token, world.issuer.id);
    const c = await aCoin(world.server, bob.token, ownIssuer.id);
    await fund(world.server, world.admin, a.serial, '10.00');
    await fund(world.server, world.admin, b.serial, '10.00');
    const off = await world.server.request('PATCH', `/api/v1/issuers/${ownIssuer.id}`, { token: world.admin, body: { active: false } });
    expectStatus(off, 200);
    expectError(await transfer(world.server, alice.token, a.serial, b.serial, '1.00'), 409, 'exception.coin.inactive');
    expectError(await transfer(world.server, bob.token, b.serial, a.serial, '1.00'), 409, 'exception.coin.inactive');
    expectError(await transfer(world.server, bob.token, b.serial, c.serial, '1.00'), 409, 'exception.coin.inactive');
    expectError(
      await world.server.request('POST', '/api/v1/bank-top-ups', { token: world.admin, body: { coinSerial: a.serial, amount: '1.00' } }),
      409,
    );
    expectStatus(
      await world.server.request('PATCH', `/api/v1/issuers/${ownIssuer.id}`, { token: world.admin, body: { active: true } }),
      200,
    );
    expectStatus(await transfer(world.server, alice.token, a.serial, b.serial, '1.00'), 201);
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('11.00');
  });

  it('needs TRANSFER_CREATOR (cashier and administrator get 403)', async () => {
    const [a, b] = await pair('1.00');
    for (const role of ['cashier', 'administrator']) {
      const staff = role === 'administrator' ? world.admin : (await aUser(world.server, world.admin, { role })).token;
      expectError(await transfer(world.server, staff, a.serial, b.serial, '1.00'), 403);
    }
    expectError(await transfer(world.server, '', a.serial, b.serial, '1.00'), 401);
  });

  describe('bank top-ups', () => {
    it('credit a coin from the issuer’s bank-settlement coin and echo customInformation', async () => {
      const coin = await aCoin(world.server, alice.token, world.issuer.id);
      const response = await world.server.request('POST', '/api/v1/bank-top-ups', {
        token: world.admin,
        body: { coinSerial: coin.serial, amount: '250.75', customInformation: 'wire 2024-001', description: 'Salary' },
      });
      expectStatus(response, 201);
      expect(response.body.process).toMatchObject({
        type: 'bank_topup',
        status: 'processed',
        amount: '250.75',
        customInformation: 'wire 2024-001',
        description: 'Salary',
        to: { serial: coin.serial },
      });
      const settlement = response.body.process.from.serial;
      const { rows } = await world.server.db.query(`SELECT type, system_kind, balance::text AS balance FROM coins WHERE serial = $1`, [
        settlement,
      ]);
      expect(rows[0]).toMatchObject({ type: 'system', system_kind: 'bank_settlement' });
      expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('250.75');
      await expectBalancedLedger(world.server, world.admin);
    });

    it('validate amount and coin, and need the staff permission', async () => {
      const coin = await aCoin(world.server, alice.token, world.issuer.id);
      const topUp = (token: string, body: object) => world.server.request('POST', '/api/v1/bank-top-ups', { token, body });
      expectError(await topUp(world.admin, { coinSerial: coin.serial, amount: '1.001' }), 400, 'exception.validation', 'amount');
      expectError(await topUp(world.admin, { coinSerial: coin.serial, amount: '-1' }), 400, 'exception.validation', 'amount');
      expectError(await topUp(world.admin, { coinSerial: coin.serial, amount: '0' }), 400, 'exception.validation', 'amount');
      expectError(await topUp(world.admin, { coinSerial: '999999999999', amount: '1' }), 404, 'exception.coin.not_found');
      expectError(
        await topUp(world.admin, { coinSerial: coin.serial, amount: '1', orderNumber: 1 }),
        400,
        'exception.validation',
        'orderNumber',
      );
      expectError(await topUp(alice.token, { coinSerial: coin.serial, amount: '1' }), 403);
      expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('0.00');
    });
  });

  describe('exact amounts', () => {
    it('moves 0.000000000000000001 exactly in a currency with fraction 10^18', async () => {
      const atto = await aCurrency(world.server, world.admin, { fraction: '1000000000000000000' });
      expect(atto.fraction).toBe(1e18);
      const attoIssuer = await anIssuer(world.server, world.admin, atto.code);
      const a = await aCoin(world.server, alice.token, attoIssuer.id);
      const b = await aCoin(world.server, bob.token, attoIssuer.id);
      await fund(world.server, world.admin, a.serial, '1');
      const response = await transfer(world.server, alice.token, a.serial, b.serial, '0.000000000000000001');
      expectStatus(response, 201);
      expect(response.body.process.amount).toBe('0.000000000000000001');
      expectLegs(response.body.process, [[a.serial, b.serial, '0.000000000000000001']]);
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('0.999999999999999999');
      expect(await balanceOf(world.server, bob.token, b.serial)).toBe('0.000000000000000001');
      expectError(
        await transfer(world.server, alice.token, a.serial, b.serial, '0.0000000000000000001'),
        400,
        'exception.validation',
        'amount',
      );
      const { rows } = await world.server.db.query('SELECT balance::text AS balance FROM coins WHERE serial = $1', [b.serial]);
      expect(rows[0].balance).toBe('0.000000000000000001');
    });

    it('does the same for a currency created with the JSON number 1000000000000000000', async () => {
      const code = `Q${Date.now().toString(36).toUpperCase()}`.slice(0, 10);
      const created = await world.server.request('POST', '/api/v1/currencies', {
        token: world.admin,
        rawBody: `{"code":"${code}","name":"Atto number","fraction":1000000000000000000}`,
        headers: JSON_HEADERS,
      });
      expectStatus(created, 201);
      const attoIssuer = await anIssuer(world.server, world.admin, code);
      const a = await aCoin(world.server, alice.token, attoIssuer.id);
      const b = await aCoin(world.server, bob.token, attoIssuer.id);
      await fund(world.server, world.admin, a.serial, '0.000000000000000003');
      expectStatus(await transfer(world.server, alice.token, a.serial, b.serial, '0.000000000000000001'), 201);
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('0.000000000000000002');
      expect(await balanceOf(world.server, bob.token, b.serial)).toBe('0.000000000000000001');
    });

    it('round-trips 12345678901234567.89 at fraction 100, as a string and as a raw JSON number', async () => {
      const a = await aCoin(world.server, alice.token, world.issuer.id);
      const b = await aCoin(world.server, bob.token, world.issuer.id);
      const c = await aCoin(world.server, bob.token, world.issuer.id);
      const topUp = await fund(world.server, world.admin, a.serial, '12345678901234567.89');
      expect(topUp.amount).toBe('12345678901234567.89');
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('12345678901234567.89');
      const rawTopUp = await world.server.request('POST', '/api/v1/bank-top-ups', {
        token: world.admin,
        rawBody: `{"coinSerial":"${c.serial}","amount":12345678901234567.89}`,
        headers: JSON_HEADERS,
      });
      expectStatus(rawTopUp, 201);
      expect(rawTopUp.body.process.amount).toBe('12345678901234567.89');
      expect(await balanceOf(world.server, bob.token, c.serial)).toBe('12345678901234567.89');
      const rawTransfer = await world.server.request('POST', '/api/v1/transfers', {
        token: alice.token,
        rawBody: `{"paymentTool":{"type":"COIN","srcValue":"${a.serial}","destValue":"${b.serial}"},"amount":12345678901234567.89}`,
        headers: JSON_HEADERS,
      });
      expectStatus(rawTransfer, 201);
      expect(rawTransfer.body.process.amount).toBe('12345678901234567.89');
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('0.00');
      expect(await balanceOf(world.server, bob.token, b.serial)).toBe('12345678901234567.89');
      const tooPrecise = await world.server.request('POST', '/api/v1/bank-top-ups', {
        token: world.admin,
        rawBody: `{"coinSerial":"${c.serial}","amount":12345678901234567.891}`,
        headers: JSON_HEADERS,
      });
      expectError(tooPrecise, 400, 'exception.validation', 'amount');
      expectError(
        await world.server.request('POST', '/api/v1/bank-top-ups', {
          token: world.admin,
          body: { coinSerial: c.serial, amount: '12345678901234567.891' },
        }),
        400,
        'exception.validation',
        'amount',
      );
      await expectBalancedLedger(world.server, world.admin);
    });

    it('refuses more than 20 integer digits, and answers an overflowing balance without a 500', async () => {
      const bigIssuer = await anIssuer(world.server, world.admin, world.issuer.currency.code, 'Big bank');
      const coin = await aCoin(world.server, alice.token, bigIssuer.id);
      const topUp = (amount: string) =>
        world.server.request('POST', '/api/v1/bank-top-ups', { token: world.admin, body: { coinSerial: coin.serial, amount } });
      expectError(await topUp('100000000000000000000'), 400, 'exception.validation', 'amount');
      expectStatus(await topUp('99999999999999999999.99'), 201);
      expectError(await topUp('99999999999999999999.99'), 409, 'exception.coin.balance_limit');
      expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('99999999999999999999.99');
      await expectBalancedLedger(world.server, world.admin);
    });

    it('refuses decimals in a currency with fraction 1', async () => {
      const unitsIssuer = await anIssuer(world.server, world.admin, (await aCurrency(world.server, world.admin, { fraction: 1 })).code);
      const a = await aCoin(world.server, alice.token, unitsIssuer.id);
      const b = await aCoin(world.server, bob.token, unitsIssuer.id);
      await fund(world.server, world.admin, a.serial, '10');
      expectError(await transfer(world.server, alice.token, a.serial, b.serial, '1.5'), 400, 'exception.validation', 'amount');
      const ok = await transfer(world.server, alice.token, a.serial, b.serial, '2');
      expectStatus(ok, 201);
      // A whole amount is a whole JSON number.
      expect(ok.body.process.amount).toBe(2);
      expect(ok.text).toContain('"amount":2,');
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe(8);
    });
  });
});
