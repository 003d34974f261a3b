import { Actor } from './helpers/actors';
import { aFee, percent } from './helpers/commissions';
import { aRate, exchange, fundReserve, sumsPerCurrency, systemCoinOf } from './helpers/exchange';
import {
  aCoin,
  aCurrency,
  anIssuer,
  balanceOf,
  CoinBody,
  CurrencyBody,
  Dec,
  expectBalancedLedger,
  expectError,
  expectLegs,
  expectStatus,
  fund,
  IssuerBody,
} from './helpers/money';
import { moneyWorld } from './helpers/world';

/** Exchanges between currencies of fraction 100 (the world's, "A") and 10^18 ("B"). */
describe('exchange rates and exchanges (issue 13)', () => {
  const world = moneyWorld();
  let big: CurrencyBody;
  let bigIssuer: IssuerBody;
  let A: string;
  let B: string;

  const R_AB = '1.234567890123456789';
  const R_BA = '0.810000000000000001';

  beforeAll(async () => {
    A = world.currency.code;
    big = await aCurrency(world.server, world.admin, { fraction: '1000000000000000000' });
    B = big.code;
    bigIssuer = await anIssuer(world.server, world.admin, B, 'Tiny units bank');
    await aRate(world.server, world.admin, A, B, R_AB);
    await aRate(world.server, world.admin, B, A, R_BA);
    await fundReserve(world.server, world.admin, world.issuer.id, '100000.00');
    await fundReserve(world.server, world.admin, bigIssuer.id, '100000');
  });

  /** A customer with a funded coin of A and an empty coin of B. */
  const customer = async (fundsA = '1000.00', fundsB?: string): Promise<{ alice: Actor; a: CoinBody; b: CoinBody }> => {
    const alice = await world.user();
    const a = await world.coin(alice, fundsA);
    const b = await aCoin(world.server, alice.token, bigIssuer.id);
    if (fundsB) await fund(world.server, world.admin, b.serial, fundsB);
    return { alice, a, b };
  };
  /** `alice` exchanges `amount` from her coin `from` to her coin `to`: sold (`sell`) or bought (`buy`). */
  const exchangeOf = (alice: Actor, from: CoinBody, to: CoinBody, amount: string, direction: 'sell' | 'buy') =>
    exchange(world.server, alice.token, { fromCoin: from.serial, toCoin: to.serial, amount, direction });
  const reserve = async (issuerId: string) => (await systemCoinOf(world.server, issuerId, 'exchange_reserve'))!;

  describe('exact amounts between fractions 100 and 10^18, never in the customer’s favour', () => {
    it('sell 10.01 A at 1.234567890123456789: the exact product 12.35802458013580245789 rounds half-even up, so it is cut down', async () => {
      const { alice, a, b } = await customer();
      const reserveA = await reserve(world.issuer.id);
      const reserveB = await reserve(bigIssuer.id);
      const body = { fromCoin: a.serial, toCoin: b.serial, amount: '10.01', direction: 'sell', customInformation: 'fx 1' };
      const calculated = await world.server.request('POST', '/api/v1/exchange/calculate', { token: alice.token, body });
      expectStatus(calculated, 200);
      // The terms it quotes are the ones the exchange then makes.
      const terms10_01 = {
        direction: 'sell',
        sellAmount: '10.01',
        sellCurrency: A,
        buyAmount: '12.358024580135802457',
        buyCurrency: B,
        rate: R_AB,
      };
      expect(calculated.body).toMatchObject({
        status: 'ok',
        ...terms10_01,
        commission: '0.00',
        transactionAmount: '10.01',
        senderAmountPush: '10.01',
        commissionAmountPush: '0.00',
        paymentToolDetails: { type: 'COIN', srcValue: a.serial, destValue: b.serial, currency: A },
      });

      const response = await exchange(world.server, alice.token, body, `fx-${a.serial}`);
      expectStatus(response, 201);
      const { process, exchange: terms } = response.body;
      expect(process).toMatchObject({ type: 'exchange', status: 'processed', amount: '10.01', currency: A, customInformation: 'fx 1' });
      expect(process.from.serial).toBe(a.serial);
      expect(process.to.serial).toBe(b.serial);
      expectLegs(process, [
        [a.serial, reserveA.serial, '10.01'],
        [reserveB.serial, b.serial, '12.358024580135802457'],
      ]);
      expect(process.transactions.map((t: any) => t.issuer.currency)).toEqual([A, B]);
      expect(terms).toEqual({
        ...terms10_01,
        rateId: expect.any(String),
        rateValidFrom: expect.any(String),
        commission: '0.00',
      });
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('989.99');
      expect(await balanceOf(world.server, alice.token, b.serial)).toBe('12.358024580135802457');
      // The customer's advantage: bought − sold × rate is ≤ 0 and above −1 minor unit of B.
      const advantage = new Dec('12.358024580135802457').minus(new Dec('10.01').times(R_AB));
      expect(advantage.lte(0) && advantage.gt('-0.000000000000000001')).toBe(true);
      // The bought amount, rate and currency are in the operation's details too.
      const { rows } = await world.server.db.query('SELECT details FROM operations WHERE id = $1', [process.id]);
      expect(rows[0].details.exchange).toMatchObject({ buyAmount: '12.358024580135802457', buyCurrency: B, rate: R_AB, direction: 'sell' });
      // A replay answers the same, once.
      const replay = await exchange(world.server, alice.token, body, `fx-${a.serial}`);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(response.body);
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('989.99');
      await expectBalancedLedger(world.server, world.admin);
    });

    it('buy 100.000000000000000001 B: the sold amount rounds up to 81.01 A (81.00000072900… exactly)', async () => {
      const { alice, a, b } = await customer();
      const response = await exchangeOf(alice, a, b, '100.000000000000000001', 'buy');
      expectStatus(response, 201);
      expect(response.body.exchange).toMatchObject({ sellAmount: '81.01', buyAmount: '100.000000000000000001' });
      expect(response.body.process.amount).toBe('81.01');
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('918.99');
      expect(await balanceOf(world.server, alice.token, b.serial)).toBe('100.000000000000000001');
      // Paying one minor unit less would not buy it; paying this buys at least it.
      expect(new Dec('81.01').times(R_AB).gte('100.000000000000000001')).toBe(true);
      expect(new Dec('81.00').times(R_AB).lt('100.000000000000000001')).toBe(true);
    });

    it('sell 1.006172839506172839 B at 0.810000000000000001: 0.815000000000000000596… would round half-even up to 0.82, so 0.81 A', async () => {
      const { alice, a, b } = await customer('0', '5');
      const response = await exchangeOf(alice, b, a, '1.006172839506172839', 'sell');
      expectStatus(response, 201);
      expect(response.body.exchange).toMatchObject({ sellAmount: '1.006172839506172839', buyAmount: '0.81', rate: R_BA });
      expect(response.body.process).toMatchObject({ amount: '1.006172839506172839', currency: B });
      expect(await balanceOf(world.server, alice.token, b.serial)).toBe('3.993827160493827161');
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('0.81');
      // 2 B buy exactly 1.620000000000000002 → 1.62 (half-even rounds down here, as the exact product does).
      const two = await exchange(world.server, alice.token, { fromCoin: b.serial, toCoin: a.serial, amount: 2, direction: 'sell' });
      expect(two.body.exchange).toMatchObject({ sellAmount: '2.000000000000000000', buyAmount: '1.62' });
    });

    it('buy 10.00 A with B: the sold amount rounds up to 12.345679012345678998 B (12.3456790123456789971… exactly)', async () => {
      const { alice, a, b } = await customer('0', '20');
      const response = await exchangeOf(alice, b, a, '10.00', 'buy');
      expectStatus(response, 201);
      expect(response.body.exchange).toMatchObject({ sellAmount: '12.345679012345678998', buyAmount: '10.00' });
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('10.00');
      expect(await balanceOf(world.server, alice.token, b.serial)).toBe('7.654320987654321002');
      expect(new Dec('12.345679012345678998').times(R_BA).gte(10)).toBe(true);
      expect(new Dec('12.345679012345678997').times(R_BA).lt(10)).toBe(true);
    });

    it('refuses an amount that buys less than one minor unit (400), or with more decimals than its currency (400)', async () => {
      const { alice, a, b } = await customer('0', '1');
      const send = (body: Record<string, unknown>) =>
        exchange(world.server, alice.token, { fromCoin: b.serial, toCoin: a.serial, ...body } as never);
      expectError(await send({ amount: '0.000000000000000001', direction: 'sell' }), 400, 'exception.validation', 'amount');
      expectError(await send({ amount: '0.001', direction: 'buy' }), 400, 'exception.validation', 'amount');
      expectError(await send({ amount: '0', direction: 'sell' }), 400, 'exception.validation', 'amount');
      expectError(await send({ amount: '1', direction: 'both' }), 400, 'exception.validation', 'direction');
      expectError(await send({ amount: '1', direction: 'sell', rate: '2' }), 400, 'exception.validation', 'rate');
    });
  });

  describe('the rules of a pair', () => {
    it('uses the rate with the latest validFrom not after now; a future rate is not yet in force', async () => {
      const C = (await aCurrency(world.server, world.admin)).code;
      await aRate(world.server, world.admin, A, C, '2', '2020-01-01T00:00:00Z');
      const later = await aRate(world.server, world.admin, A, C, '2.5', '2021-06-01T00:00:00+02:00');
      await aRate(world.server, world.admin, A, C, '3', '2999-01-01T00:00:00Z');
      const current = await world.server.request('GET', `/api/v1/exchange-rates/${A}/${C}`, { token: (await world.user()).token });
      expectStatus(current, 200);
      expect(current.body.rate).toEqual({
        id: later.id,
        fromCurrency: A,
        toCurrency: C,
        rate: '2.5',
        validFrom: '2021-05-31T22:00:00.000Z',
        createdAt: expect.any(String),
      });
      const view = await world.server.request('POST', '/api/v1/exchange-rates/view', {
        token: world.admin,
        body: { filter: { fromCurrency: A, toCurrency: C }, sort: { validFrom: 'asc' } },
      });
      expectStatus(view, 200);
      expect(view.body.records.map((r: any) => r.rate)).toEqual([2, '2.5', 3]);
      expect(view.body.totalRecords).toBe(3);
      const inForce = await world.server.request('POST', '/api/v1/exchange-rates/view', {
        token: world.admin,
        body: { filter: { toCurrency: C, current: true } },
      });
      expect(inForce.body.records.map((r: any) => r.id)).toEqual([later.id]);
      // The same moment twice is a 409; rates are exact decimals with at most 18 places, above 0.
      const again = await world.server.request('POST', '/api/v1/exchange-rates', {
        token: world.admin,
        body: { fromCurrency: A, toCurrency: C, rate: '9', validFrom: '2020-01-01T00:00:00Z' },
      });
      expectError(again, 409, 'exception.exchange_rate.duplicate');
      for (const rate of ['0', '-1', '1.0000000000000000001', 'abc']) {
        const bad = await world.server.request('POST', '/api/v1/exchange-rates', {
          token: world.admin,
          body: { fromCurrency: A, toCurrency: C, rate },
        });
        expectError(bad, 400, 'exception.validation', 'rate');
      }
      const precise = await aRate(world.server, world.admin, C, A, '0.000000000000000001');
      expect(precise.rate).toBe('0.000000000000000001');
    });

    it('answers 404 for an unknown currency, 400 for the same currency twice or a malformed code', async () => {
      const create = (body: Record<string, unknown>) =>
        world.server.request('POST', '/api/v1/exchange-rates', { token: world.admin, body });
      expectError(await create({ fromCurrency: A, toCurrency: 'ZZ9NOPE', rate: '1' }), 404, 'exception.currency.not_found');
      expectError(await create({ fromCurrency: A, toCurrency: A, rate: '1' }), 400, 'exception.validation', 'toCurrency');
      expectError(await create({ fromCurrency: 'eur', toCurrency: A, rate: '1' }), 400, 'exception.validation', 'fromCurrency');
      expectError(
        await create({ fromCurrency: A, toCurrency: B, rate: '1', validFrom: '2026-13-01' }),
        400,
        'exception.validation',
        'validFrom',
      );
      const get = (from: string, to: string) => world.server.request('GET', `/api/v1/exchange-rates/${from}/${to}`, { token: world.admin });
      expectError(await get(A, 'ZZ9NOPE'), 404, 'exception.currency.not_found');
      expectError(await get(A, A), 400, 'exception.validation', 'to');
      expectError(await get('usd', A), 400, 'exception.validation', 'from');
      // Only staff set rates.
      expectError(await world.server.request('POST', '/api/v1/exchange-rates', { token: (await world.user()).token, body: {} }), 403);
    });

    it('specification section 9: an existing pair never answers 404 — without a rate it is a 409, the inverse pair’s rate is not used', async () => {
      const C = await aCurrency(world.server, world.admin);
      const cIssuer = await anIssuer(world.server, world.admin, C.code);
      await aRate(world.server, world.admin, C.code, A, '0.5');
      const get = await world.server.request('GET', `/api/v1/exchange-rates/${A}/${C.code}`, { token: world.admin });
      expectError(get, 409, 'exception.exchange.rate_missing');
      const { alice, a } = await customer('50.00');
      const c = await aCoin(world.server, alice.token, cIssuer.id);
      const body = { fromCoin: a.serial, toCoin: c.serial, amount: '10.00', direction: 'sell' };
      expectError(
        await world.server.request('POST', '/api/v1/exchange/calculate', { token: alice.token, body }),
        409,
        'exception.exchange.rate_missing',
      );
      expectError(await exchange(world.server, alice.token, body), 409, 'exception.exchange.rate_missing');
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('50.00');
      // Once the pair has its own rate, the same request goes through (and the reserve must hold the bought amount).
      await aRate(world.server, world.admin, A, C.code, '2');
      await fundReserve(world.server, world.admin, cIssuer.id, '20.00');
      const done = await exchange(world.server, alice.token, body);
      expectStatus(done, 201);
      expect(done.body.exchange).toMatchObject({ sellAmount: '10.00', buyAmount: '20.00' });
      expect((await reserve(cIssuer.id)).balance).toBe('0.000000000000000000');
    });

    it('refuses an exchange the bought currency’s reserve cannot cover (409), writing nothing', async () => {
      const C = await aCurrency(world.server, world.admin);
      const cIssuer = await anIssuer(world.server, world.admin, C.code);
      await aRate(world.server, world.admin, A, C.code, '1');
      const { alice, a } = await customer('100.00');
      const c = await aCoin(world.server, alice.token, cIssuer.id);
      const body = { fromCoin: a.serial, toCoin: c.serial, amount: '30.00', direction: 'buy' };
      expectError(await exchange(world.server, alice.token, body), 409, 'exception.exchange.reserve_insufficient');
      await fundReserve(world.server, world.admin, cIssuer.id, '29.99');
      expectError(await exchange(world.server, alice.token, body), 409, 'exception.exchange.reserve_insufficient');
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('100.00');
      expect(await balanceOf(world.server, alice.token, c.serial)).toBe('0.00');
      await fundReserve(world.server, world.admin, cIssuer.id, '0.01');
      expectStatus(await exchange(world.server, alice.token, body), 201);
      expect((await reserve(cIssuer.id)).balance).toBe('0.000000000000000000');
      // A reserve never goes below zero through an exchange.
      expectError(await exchange(world.server, alice.token, { ...body, amount: '0.01' }), 409, 'exception.exchange.reserve_insufficient');
      await expectBalancedLedger(world.server, world.admin);
    });

    it('lets parallel exchanges take a reserve down to zero and no further: 10 buys of 10.00 against 50.00, 5 succeed', async () => {
      const C = await aCurrency(world.server, world.admin);
      const cIssuer = await anIssuer(world.server, world.admin, C.code);
      await aRate(world.server, world.admin, A, C.code, '0.5');
      await fundReserve(world.server, world.admin, cIssuer.id, '50.00');
      const buyers: { alice: Actor; a: CoinBody; c: CoinBody }[] = [];
      for (let i = 0; i < 10; i++) {
        const { alice, a } = await customer('20.00');
        buyers.push({ alice, a, c: await aCoin(world.server, alice.token, cIssuer.id) });
      }
      const answers = await Promise.all(
        buyers.map(({ alice, a, c }, i) =>
          exchange(world.server, alice.token, { fromCoin: a.serial, toCoin: c.serial, amount: '10.00', direction: 'buy' }, `drain-${i}`),
        ),
      );
      expect(answers.filter((r) => r.status === 201)).toHaveLength(5);
      for (const r of answers.filter((x) => x.status !== 201)) expectError(r, 409, 'exception.exchange.reserve_insufficient');
      expect((await reserve(cIssuer.id)).balance).toBe('0.000000000000000000');
      const received = await Promise.all(buyers.map(({ alice, c }) => balanceOf(world.server, alice.token, c.serial)));
      expect(received.filter((b) => b === '10.00')).toHaveLength(5);
      expect(received.filter((b) => b === '0.00')).toHaveLength(5);
      await expectBalancedLedger(world.server, world.admin);
    });

    it('refuses coins that are not both the caller’s client coins in two currencies (BOLA: 404)', async () => {
      const { alice, a, b } = await customer('10.00');
      const { a: otherA, b: otherB } = await customer('10.00');
      const send = (fromCoin: string, toCoin: string) =>
        exchange(world.server, alice.token, { fromCoin, toCoin, amount: '1.00', direction: 'sell' });
      expectError(await send(a.serial, otherB.serial), 404, 'exception.coin.not_found');
      expectError(await send(otherA.serial, b.serial), 404, 'exception.coin.not_found');
      expectError(await send(a.serial, '999999999999'), 404, 'exception.coin.not_found');
      const a2 = await world.coin(alice);
      expectError(await send(a.serial, a2.serial), 400, 'exception.validation', 'toCoin');
      expectError(await send(a.serial, a.serial), 400, 'exception.validation', 'toCoin');
      expectError(await send(a.serial, (await reserve(bigIssuer.id)).serial), 400, 'exception.validation', 'toCoin');
      const calc = await world.server.request('POST', '/api/v1/exchange/calculate', {
        token: alice.token,
        body: { fromCoin: otherA.serial, toCoin: b.serial, amount: '1.00', direction: 'sell' },
      });
      expectError(calc, 404, 'exception.coin.not_found');
      // Staff do not exchange; customers do.
      expectError(await exchange(world.server, world.admin, { fromCoin: a.serial, toCoin: b.serial, amount: '1', direction: 'sell' }), 403);
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('10.00');
    });

    it('refuses more than the source coin holds (409) and answers 422 for a reused Idempotency-Key with another body', async () => {
      const { alice, a, b } = await customer('5.00');
      const body = { fromCoin: a.serial, toCoin: b.serial, amount: '5.01', direction: 'sell' };
      expectError(await exchange(world.server, alice.token, body), 409, 'exception.coin.insufficient_funds');
      expectStatus(await exchange(world.server, alice.token, { ...body, amount: '1.00' }, 'fx-key'), 201);
      expectError(
        await exchange(world.server, alice.token, { ...body, amount: '2.00' }, 'fx-key'),
        422,
        'exception.idempotency.key_reused',
      );
    });
  });

  describe('the fee and the reserves', () => {
    it('charges the exchange flow’s fee in the sold currency, on top of the sold amount, to the source issuer’s commission coin', async () => {
      const { alice, a, b } = await customer('200.00');
      await aFee(world.server, world.admin, {
        organizationId: alice.organizationId,
        issuerId: world.issuer.id,
        conditions: percent('1.5'),
        flow: 'exchange',
      });
      const body = { fromCoin: a.serial, toCoin: b.serial, amount: '100.00', direction: 'sell' };
      const calculated = await world.server.request('POST', '/api/v1/exchange/calculate', { token: alice.token, body });
      expect(calculated.body).toMatchObject({
        commission: '1.50',
        senderAmountPush: '101.50',
        commissionAmountPush: '1.50',
        sellAmount: '100.00',
      });
      const commission = await systemCoinOf(world.server, world.issuer.id, 'commission');
      const before = commission ? commission.balance : '0';
      const response = await exchange(world.server, alice.token, body);
      expectStatus(response, 201);
      const collector = (await systemCoinOf(world.server, world.issuer.id, 'commission'))!;
      expectLegs(response.body.process, [
        [a.serial, (await reserve(world.issuer.id)).serial, '100.00'],
        [(await reserve(bigIssuer.id)).serial, b.serial, '123.456789012345678900'],
        [a.serial, collector.serial, '1.50'],
      ]);
      expect(response.body.process.commission).toBe('1.50');
      expect(response.body.exchange.commission).toBe('1.50');
      expect(await balanceOf(world.server, alice.token, a.serial)).toBe('98.50');
      expect(new Dec(collector.balance).minus(before).toFixed(2)).toBe('1.50');
      // The same rule with the recipient named as payer still adds the fee on top: both coins are the caller's.
      const { alice: bob, a: ba, b: bb } = await customer('200.00');
      await aFee(world.server, world.admin, {
        organizationId: bob.organizationId,
        issuerId: world.issuer.id,
        conditions: percent('1.5'),
        flow: 'exchange',
        payer: 'recipient',
      });
      const viaRecipient = await exchange(world.server, bob.token, { ...body, fromCoin: ba.serial, toCoin: bb.serial });
      expect(viaRecipient.body.exchange).toMatchObject({ sellAmount: '100.00', buyAmount: '123.456789012345678900', commission: '1.50' });
      expect(await balanceOf(world.server, bob.token, ba.serial)).toBe('98.50');
      await expectBalancedLedger(world.server, world.admin);
    });

    it('funds a reserve from bank settlement (staff, reserve_funding); an unknown issuer is a 404, an inactive one a 409', async () => {
      const settlementBefore = (await systemCoinOf(world.server, world.issuer.id, 'bank_settlement'))!.balance;
      const reserveBefore = (await reserve(world.issuer.id)).balance;
      const funded = await world.server.request('POST', '/api/v1/exchange/reserves/fund', {
        token: world.admin,
        headers: { 'idempotency-key': 'reserve-1' },
        body: { issuerId: world.issuer.id, amount: '12.34', customInformation: 'treasury' },
      });
      expectStatus(funded, 201);
      expect(funded.body.process).toMatchObject({ type: 'reserve_funding', amount: '12.34', customInformation: 'treasury' });
      expect(new Dec((await reserve(world.issuer.id)).balance).minus(reserveBefore).toFixed(2)).toBe('12.34');
      expect(
        new Dec(settlementBefore).minus((await systemCoinOf(world.server, world.issuer.id, 'bank_settlement'))!.balance).toFixed(2),
      ).toBe('12.34');
      const fundWith = (body: Record<string, unknown>, key?: string) =>
        world.server.request('POST', '/api/v1/exchange/reserves/fund', {
          token: world.admin,
          body,
          headers: key ? { 'idempotency-key': key } : {},
        });
      expectError(await fundWith({ issuerId: world.issuer.id, amount: '1.00' }, 'reserve-1'), 422, 'exception.idempotency.key_reused');
      expectError(await fundWith({ issuerId: '00000000-0000-4000-8000-00000000beef', amount: '1' }), 404, 'exception.issuer.not_found');
      expectError(await fundWith({ issuerId: world.issuer.id, amount: '1.001' }), 400, 'exception.validation', 'amount');
      expectError(await fundWith({ issuerId: 'x', amount: '1' }), 400, 'exception.validation', 'issuerId');
      const C = await aCurrency(world.server, world.admin);
      const closed = await anIssuer(world.server, world.admin, C.code);
      expectStatus(
        await world.server.request('PATCH', `/api/v1/issuers/${closed.id}`, { token: world.admin, body: { active: false } }),
        200,
      );
      expectError(await fundWith({ issuerId: closed.id, amount: '1' }), 409, 'exception.issuer.inactive');
      // Customers do not fund reserves.
      expectError(
        await world.server.request('POST', '/api/v1/exchange/reserves/fund', {
          token: (await world.user()).token,
          body: { issuerId: world.issuer.id, amount: '1' },
        }),
        403,
      );
    });

    it('keeps money only moving: per currency, the sum of every coin’s balance is unchanged by exchanges; the ledger balances', async () => {
      const before = await sumsPerCurrency(world.server);
      const { alice, a, b } = await customer('300.00');
      const after = await sumsPerCurrency(world.server);
      // A bank top-up credits a client coin from the settlement coin: the sum per currency does not change either.
      for (const code of Object.keys(before)) expect(new Dec(after[code]).eq(before[code])).toBe(true);
      for (const [amount, direction] of [
        ['0.01', 'sell'],
        ['33.33', 'sell'],
        ['0.000000000000000007', 'buy'],
        ['7.123456789012345678', 'buy'],
      ] as const) {
        expectStatus(await exchange(world.server, alice.token, { fromCoin: a.serial, toCoin: b.serial, amount, direction }), 201);
      }
      expectStatus(
        await exchange(world.server, alice.token, { fromCoin: b.serial, toCoin: a.serial, amount: '1.5', direction: 'sell' }),
        201,
      );
      const end = await sumsPerCurrency(world.server);
      for (const code of Object.keys(before)) expect({ code, same: new Dec(end[code]).eq(before[code]) }).toEqual({ code, same: true });
      await expectBalancedLedger(world.server, world.admin);
    });
  });
});
