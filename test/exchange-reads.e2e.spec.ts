import type { Actor } from './helpers/actors';
import { adminToken, aUser } from './helpers/actors';
import { aRate, exchange, fundReserve } from './helpers/exchange';
import type { CoinBody, IssuerBody } from './helpers/money';
import { aCoin, aCurrency, anIssuer, expectError, expectStatus, fund, recording, twoInstances } from './helpers/money';
import { dbCalls, HEARD_WITHIN_MS, TestServer, within } from './helpers/server';

/**
 * The reads before an exchange's posting (issue 48): the rate in force is kept per currency pair
 * (src/money-movement/exchange-rates/rates-in-force.ts), and the two coins are checked from what PricingCache keeps of
 * them, so an exchange of coins already seen runs no statement before its posting. A new rate takes effect on the very
 * next exchange, on the instance that made it and, by NOTIFY, on another one over the same database; a rate valid from
 * a later moment takes effect at that moment. Every refusal answers as it did.
 */
describe('the reads before an exchange', () => {
  const servers = twoInstances();
  let a: ReturnType<typeof recording>;
  let b: ReturnType<typeof recording>;
  let admin: string;
  let X: string;
  let Y: string;
  let xIssuer: IssuerBody;
  let yIssuer: IssuerBody;

  beforeAll(async () => {
    ({ a, b } = servers);
    admin = await adminToken(a);
    X = (await aCurrency(a, admin)).code;
    Y = (await aCurrency(a, admin)).code;
    xIssuer = await anIssuer(a, admin, X);
    yIssuer = await anIssuer(a, admin, Y);
    await fundReserve(a, admin, xIssuer.id, '100000.00');
    await fundReserve(a, admin, yIssuer.id, '100000.00');
  });

  /** A customer with a funded coin of `from` (X) and an empty one of `to` (Y). */
  const customer = async (from = xIssuer, to = yIssuer): Promise<{ alice: Actor; x: CoinBody; y: CoinBody }> => {
    const alice = await aUser(a, admin);
    const x = await aCoin(a, alice.token, from.id);
    await fund(a, admin, x.serial, '1000.00');
    return { alice, x, y: await aCoin(a, alice.token, to.id) };
  };

  const body = (x: CoinBody, y: CoinBody, amount = '1.00') => ({ fromCoin: x.serial, toCoin: y.serial, amount, direction: 'sell' });
  const calculate = (server: TestServer, alice: Actor, x: CoinBody, y: CoinBody) =>
    server.request('POST', '/api/v1/exchange/calculate', { token: alice.token, body: body(x, y) });
  /** The rate the next exchange of 1.00 on `server` is made at. */
  const rateOf = async (server: TestServer, alice: Actor, x: CoinBody, y: CoinBody): Promise<string> => {
    const response = await exchange(server, alice.token, body(x, y));
    expectStatus(response, 201);
    return String(response.body.exchange.rate);
  };
  const quotedRate = async (server: TestServer, alice: Actor, x: CoinBody, y: CoinBody): Promise<string> =>
    String((await calculate(server, alice, x, y)).body.rate);

  it('runs no statement for the coins or the rate once both are known; a new rate is used on the very next exchange', async () => {
    const C = (await aCurrency(a, admin)).code;
    const cIssuer = await anIssuer(a, admin, C);
    await fundReserve(a, admin, cIssuer.id, '1000.00');
    await aRate(a, admin, X, C, '2');
    const { alice, x, y } = await customer(xIssuer, cIssuer);

    // Cold: the coins and the rate are read (and kept) with the exchange.
    const cold = await exchange(a, alice.token, body(x, y));
    expectStatus(cold, 201);
    expect(dbCalls(cold.headers.get('server-timing'))).toBe(4);
    // Warm: the coins, the rate and the fee terms (a statement each) are no longer read: what is left is the posting.
    // (A change's NOTIFY heard late, the rate's above, may drop what was kept once: the next exchange reads it again.)
    const onlyThePosting = await within(HEARD_WITHIN_MS, async () => {
      const warm = await exchange(a, alice.token, body(x, y));
      expectStatus(warm, 201);
      expect(warm.body.exchange.rate).toBe(2);
      return dbCalls(warm.headers.get('server-timing')) === 1;
    });
    expect(onlyThePosting).toBeLessThan(HEARD_WITHIN_MS);
    // A calculation reads its coins (it shows their names), never the rate once kept.
    expect(
      await within(HEARD_WITHIN_MS, async () => dbCalls((await calculate(a, alice, x, y)).headers.get('server-timing')) === 1),
    ).toBeLessThan(HEARD_WITHIN_MS);

    await aRate(a, admin, X, C, '2.5');
    expect(await rateOf(a, alice, x, y)).toBe('2.5');
    // And kept again: a calculation reads only its coins. (The change's own NOTIFY, heard a moment after its commit, may
    // drop what was kept once more: a read then reads the rate again, which a busy machine showed.)
    const keptAgain = await within(HEARD_WITHIN_MS, async () => {
      const after = await calculate(a, alice, x, y);
      expect(after.body.rate).toBe('2.5');
      return dbCalls(after.headers.get('server-timing')) === 1;
    });
    expect(keptAgain).toBeLessThan(HEARD_WITHIN_MS);
  });

  it('takes a rate valid from a later moment at that moment, never before', async () => {
    const C = (await aCurrency(a, admin)).code;
    const cIssuer = await anIssuer(a, admin, C);
    await fundReserve(a, admin, cIssuer.id, '1000.00');
    await aRate(a, admin, X, C, '3');
    const takesEffect = Date.now() + 3_000;
    await aRate(a, admin, X, C, '4', new Date(takesEffect).toISOString());
    const { alice, x, y } = await customer(xIssuer, cIssuer);
    // Kept from now on, and still 3 until the moment comes.
    while (Date.now() < takesEffect - 500) {
      const rate = await rateOf(a, alice, x, y);
      if (Date.now() < takesEffect) expect(rate).toBe('3');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await within(HEARD_WITHIN_MS, async () => (await quotedRate(a, alice, x, y)) === '4')).toBeLessThan(HEARD_WITHIN_MS);
    expect(Date.now()).toBeGreaterThanOrEqual(takesEffect);
    expect(await rateOf(a, alice, x, y)).toBe('4');
  });

  it('uses a rate set on another instance, or straight in the database, as soon as the database announces it', async () => {
    const C = (await aCurrency(a, admin)).code;
    const cIssuer = await anIssuer(a, admin, C);
    await fundReserve(a, admin, cIssuer.id, '1000.00');
    await aRate(a, admin, X, C, '5');
    const { alice, x, y } = await customer(xIssuer, cIssuer);
    expect(await rateOf(b, alice, x, y)).toBe('5');
    expect(await rateOf(b, alice, x, y)).toBe('5');

    await aRate(a, admin, X, C, '6');
    // B hears it by NOTIFY, in milliseconds: until then it would use what it kept (the cache has no expiry), so the test
    // waits for it rather than timing it (a loaded machine may take a while).
    expect(await within(HEARD_WITHIN_MS, async () => (await quotedRate(b, alice, x, y)) === '6')).toBeLessThan(HEARD_WITHIN_MS);
    expect(await rateOf(b, alice, x, y)).toBe('6');

    // Neither instance sees this statement: only the trigger's NOTIFY tells them.
    const [{ id: cId }] = (await a.db.query('SELECT id FROM currencies WHERE code = $1', [C])).rows;
    const [{ id: xId }] = (await a.db.query('SELECT id FROM currencies WHERE code = $1', [X])).rows;
    await a.db.query(`INSERT INTO exchange_rates (from_currency_id, to_currency_id, rate, valid_from) VALUES ($1, $2, 7, now())`, [
      xId,
      cId,
    ]);
    for (const server of [a, b]) {
      expect(await within(HEARD_WITHIN_MS, async () => (await quotedRate(server, alice, x, y)) === '7')).toBeLessThan(HEARD_WITHIN_MS);
      expect(await rateOf(server, alice, x, y)).toBe('7');
    }
    // Every rate of the pair gone: a 409, on both.
    await a.db.query('DELETE FROM exchange_rates WHERE from_currency_id = $1 AND to_currency_id = $2', [xId, cId]);
    for (const server of [a, b]) {
      expect(
        await within(HEARD_WITHIN_MS, async () => (await calculate(server, alice, x, y)).body.code === 'exception.exchange.rate_missing'),
      ).toBeLessThan(HEARD_WITHIN_MS);
      expectError(await exchange(server, alice.token, body(x, y)), 409, 'exception.exchange.rate_missing');
    }
  });

  it('answers every refusal as before with coins and a rate already known', async () => {
    await aRate(a, admin, X, Y, '1.5');
    const { alice, x, y } = await customer();
    const { x: otherX, y: otherY } = await customer();
    const x2 = await aCoin(a, alice.token, xIssuer.id);
    const closing = await aCoin(a, alice.token, yIssuer.id);
    const { rows } = await a.db.query(
      `SELECT serial::text AS serial FROM coins WHERE issuer_id = $1 AND system_kind = 'exchange_reserve'`,
      [yIssuer.id],
    );
    const reserveY: string = rows[0].serial;
    const send = (fromCoin: string, toCoin: string, amount = '1.00') =>
      exchange(a, alice.token, { fromCoin, toCoin, amount, direction: 'sell' });
    // The first round reads the coins, the second finds them kept (each took part in an exchange or its calculation).
    for (let round = 0; round < 2; round++) {
      expectStatus(await send(x.serial, y.serial), 201);
      expectStatus(await calculate(a, alice, x, closing), 200);
      expectError(await send(x.serial, otherY.serial), 404, 'exception.coin.not_found');
      expectError(await send(otherX.serial, y.serial), 404, 'exception.coin.not_found');
      expectError(await send(x.serial, '999999999999'), 404, 'exception.coin.not_found');
      expectError(await send(x.serial, x2.serial), 400, 'exception.validation', 'toCoin');
      expectError(await send(x.serial, reserveY), 400, 'exception.validation', 'toCoin');
      expectError(await send(x.serial, y.serial, '1.001'), 400, 'exception.validation', 'amount');
      expectError(await send(x.serial, y.serial, '5000.00'), 409, 'exception.coin.insufficient_funds');
      expectError(await send(y.serial, x.serial), 409, 'exception.exchange.rate_missing');
    }
    // A coin closed since it was kept: the plan checks the locked coin.
    expectStatus(await a.request('POST', `/api/v1/close/coin/${closing.serial}`, { token: alice.token, body: {} }), 200);
    expectError(await send(x.serial, closing.serial), 409, 'exception.coin.inactive');
  });
});
