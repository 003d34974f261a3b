import { aFee, percent } from '../helpers/commissions';
import { aRate, fundReserve, systemCoinOf } from '../helpers/exchange';
import { aCoin, aCurrency, anIssuer, expectError, expectStatus, fund, uniqueCode } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * The family web client's exchange page (its `payments` module): `POST /exchange/calculator` and `POST /exchange` with
 * the body its call sites send ({ inCoinSerial, outCoinSerial, amount, exchangeType }), and the answer fields it reads.
 */
describe('family client: exchange', () => {
  const world = moneyWorld();
  let usd: string;
  let usdIssuer: string;

  beforeAll(async () => {
    usd = (await aCurrency(world.server, world.admin, { fraction: 100 })).code;
    usdIssuer = (await anIssuer(world.server, world.admin, usd, 'Dollar bank')).id;
    await aRate(world.server, world.admin, world.currency.code, usd, '1.085');
    await fundReserve(world.server, world.admin, usdIssuer, '10000.00');
  });

  const customer = async () => {
    const alice = await world.user();
    const from = await world.coin(alice, '200.00');
    const to = await aCoin(world.server, alice.token, usdIssuer);
    return { alice, from, to };
  };

  it('POST /exchange/calculator — the page’s body; reads topUpAmount, withdrawAmount and exchangeRate.rate / outIssuer.currency', async () => {
    const { alice, from, to } = await customer();
    const body = { inCoinSerial: from.serial, outCoinSerial: to.serial, amount: 100, exchangeType: 'sell' };
    const answer = await world.server.request('POST', '/api/v1/exchange/calculator', { token: alice.token, body });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ topUpAmount: '108.50', withdrawAmount: '100.00', sellAmount: '100.00', buyAmount: '108.50' });
    expect(answer.body.exchangeRate).toMatchObject({
      rate: '1.085',
      inIssuer: { id: world.issuer.id, currency: world.currency.code },
      outIssuer: { id: usdIssuer, currency: usd },
    });
    // exchangeType buy: the amount is what the dollar coin receives.
    const buy = await world.server.request('POST', '/api/v1/exchange/calculator', {
      token: alice.token,
      body: { ...body, amount: '108.50', exchangeType: 'buy' },
    });
    expect(buy.body).toMatchObject({ topUpAmount: '108.50', withdrawAmount: '100.00' });
  });

  it('POST /exchange — the page’s body moves the money once; reads process', async () => {
    const { alice, from, to } = await customer();
    const body = { inCoinSerial: from.serial, outCoinSerial: to.serial, amount: '50.00', exchangeType: 'sell' };
    const headers = { 'Idempotency-Key': `fx-${from.serial}` };
    const done = await world.server.request('POST', '/api/v1/exchange', { token: alice.token, headers, body });
    expect(done.status).toBe(201);
    expect(done.body.process).toMatchObject({ type: 'exchange', status: 'processed' });
    const again = await world.server.request('POST', '/api/v1/exchange', { token: alice.token, headers, body });
    expect(again.body.process.id).toBe(done.body.process.id);
    const [a, b] = [
      await world.server.request('GET', `/api/v1/coins/${from.serial}`, { token: alice.token }),
      await world.server.request('GET', `/api/v1/coins/${to.serial}`, { token: alice.token }),
    ];
    expect([a.body.coin.amount, b.body.coin.amount]).toEqual(['150.00', '54.25']);
  });

  it('neither coin named in either vocabulary is a 400; another customer’s coin a 404', async () => {
    const { alice, from, to } = await customer();
    expectError(await world.server.request('POST', '/api/v1/exchange/calculator', { token: alice.token, body: { amount: '1.00' } }), 400);
    const stranger = await customer();
    expectError(
      await world.server.request('POST', '/api/v1/exchange/calculator', {
        token: stranger.alice.token,
        body: { inCoinSerial: from.serial, outCoinSerial: to.serial, amount: '1.00' },
      }),
      404,
      'exception.coin.not_found',
    );
  });

  it('POST /exchange/calculator — a pair without a rate in force is a 409', async () => {
    const { alice, from, to } = await customer();
    // Only EUR→USD has a rate: the other way round has none.
    expectError(
      await world.server.request('POST', '/api/v1/exchange/calculator', {
        token: alice.token,
        body: { inCoinSerial: to.serial, outCoinSerial: from.serial, amount: '1.00', exchangeType: 'sell' },
      }),
      409,
      'exception.exchange.rate_missing',
    );
  });
  describe('the success modal after a sell (exchange-page.vue:231-238, frequently-used-activities.vue:112, currency-exchange-block.vue:73)', () => {
    let euro: { code: string; issuer: string; sn: number };
    let dollar: { code: string; issuer: string; sn: number };

    beforeAll(async () => {
      const currency = async (symbol: string) => {
        const code = uniqueCode('S');
        const made = await world.server.request('POST', '/api/v1/currencies', {
          token: world.admin,
          body: { code, name: `Currency ${code}`, symbol, fraction: 100 },
        });
        expectStatus(made, 201);
        const issuer = await anIssuer(world.server, world.admin, code, `${symbol} bank`);
        return { code, issuer: issuer.id, sn: issuer.sn };
      };
      euro = await currency('€');
      dollar = await currency('$');
      await aRate(world.server, world.admin, euro.code, dollar.code, '1.085');
      await fundReserve(world.server, world.admin, dollar.issuer, '10000.00');
    });

    it('POST /exchange — a sell: `const [from, to] = process.children` gives the sold and the bought side with coin.issuer.symbol, coin.name, outgoingAmount, incomingAmount', async () => {
      const alice = await world.user();
      const from = await aCoin(world.server, alice.token, euro.issuer, 'Euro savings');
      await fund(world.server, world.admin, from.serial, '200.00');
      const to = await aCoin(world.server, alice.token, dollar.issuer, 'Dollar wallet');
      // A 1.5% fee on the exchange flow: paid on top of the sold amount, a third leg, on the sold side.
      await aFee(world.server, world.admin, {
        organizationId: alice.organizationId,
        issuerId: euro.issuer,
        conditions: percent('1.5'),
        flow: 'exchange',
      });
      // The page's body: the amount typed in the input (a string), exchangeType sell.
      const body = { inCoinSerial: from.serial, outCoinSerial: to.serial, amount: '100', exchangeType: 'sell' };
      const done = await world.server.request('POST', '/api/v1/exchange', { token: alice.token, body });
      expect(done.status).toBe(201);
      const { process } = done.body;

      // What the success modal's title reads.
      const [sold, bought] = process.children;
      expect({
        from_currency_symbol: sold.coin.issuer?.symbol,
        from_amount: sold.outgoingAmount,
        to_currency_symbol: bought.coin?.issuer?.symbol,
        receive_amount: bought.incomingAmount,
        account_name: bought.coin?.name,
      }).toEqual({
        from_currency_symbol: '€',
        from_amount: '100.00',
        to_currency_symbol: '$',
        receive_amount: '108.50',
        account_name: 'Dollar wallet',
      });
      // The wallets page's modal keys the sides by type and reads each coin's currency, name and serial.
      const byType = Object.fromEntries(process.children.map((c: { type: string }) => [c.type, c]));
      expect(byType.withdraw_exchange_transaction.coin).toMatchObject({
        serial: from.serial,
        name: 'Euro savings',
        issuer: { currency: euro.code },
      });
      expect(byType.topup_exchange_transaction.coin).toMatchObject({
        serial: to.serial,
        name: 'Dollar wallet',
        issuer: { currency: dollar.code },
      });

      const euroReserve = (await systemCoinOf(world.server, euro.issuer, 'exchange_reserve'))!.serial;
      const dollarReserve = (await systemCoinOf(world.server, dollar.issuer, 'exchange_reserve'))!.serial;
      const collector = (await systemCoinOf(world.server, euro.issuer, 'commission'))!.serial;
      const issuerOf = (c: { code: string; issuer: string; sn: number }, symbol: string) => ({
        id: c.issuer,
        sn: c.sn,
        currency: c.code,
        symbol,
      });
      const mine = (serial: string, name: string, issuer: object) => ({
        serial,
        name,
        organizationId: alice.organizationId,
        organizationName: process.sender.fullName,
        technical: false,
        type: 'client',
        issuer,
      });
      const system = (serial: string, issuer: object) => ({
        serial,
        name: expect.any(String),
        organizationId: expect.any(String),
        organizationName: expect.any(String),
        technical: true,
        type: 'system',
        issuer,
      });
      const eur = issuerOf(euro, '€');
      const usd = issuerOf(dollar, '$');
      const leg = (type: string, amount: string, issuer: object, legFrom: object, legTo: object) => ({
        id: expect.any(String),
        type,
        amount,
        issuer,
        from: legFrom,
        to: legTo,
        performedAt: process.createdAt,
        updatedAt: process.createdAt,
        createdAt: process.createdAt,
      });
      // Every leg: its type, amount, issuer (with its sn), both coins as the family shows them, when it was performed.
      expect(process.transactions).toEqual([
        leg('transfer', '100.00', eur, mine(from.serial, 'Euro savings', eur), system(euroReserve, eur)),
        leg('transfer', '108.50', usd, system(dollarReserve, usd), mine(to.serial, 'Dollar wallet', usd)),
        leg('commission', '1.50', eur, mine(from.serial, 'Euro savings', eur), system(collector, eur)),
      ]);
      expect(process.from).toEqual(mine(from.serial, 'Euro savings', eur));
      expect(process.to).toEqual(mine(to.serial, 'Dollar wallet', usd));
      // Each side in full: the sold side holds the legs out of the sold coin (the fee's too), the bought side the leg into the bought one.
      expect(process.children).toEqual([
        {
          id: process.transactions[0].id,
          type: 'withdraw_exchange_transaction',
          status: 'processed',
          coin: process.from,
          outgoingAmount: '100.00',
          incomingAmount: null,
          createdAt: process.createdAt,
          updatedAt: process.updatedAt,
          transactions: [process.transactions[0], process.transactions[2]],
          children: [],
        },
        {
          id: process.transactions[1].id,
          type: 'topup_exchange_transaction',
          status: 'processed',
          coin: process.to,
          outgoingAmount: null,
          incomingAmount: '108.50',
          createdAt: process.createdAt,
          updatedAt: process.updatedAt,
          transactions: [process.transactions[1]],
          children: [],
        },
      ]);
      // One shape: reading the operation back answers the same process, children and legs included.
      const read = await world.server.request('GET', `/api/v1/transactions/${process.id}`, { token: alice.token });
      expect(read.body.process).toEqual(process);
    });

    it('POST /exchange/calculator — exchangeRate.inIssuer and outIssuer carry their sn', async () => {
      const alice = await world.user();
      const from = await aCoin(world.server, alice.token, euro.issuer);
      await fund(world.server, world.admin, from.serial, '10.00');
      const to = await aCoin(world.server, alice.token, dollar.issuer);
      const answer = await world.server.request('POST', '/api/v1/exchange/calculator', {
        token: alice.token,
        body: { inCoinSerial: from.serial, outCoinSerial: to.serial, amount: '10', exchangeType: 'sell' },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.exchangeRate).toMatchObject({
        inIssuer: { id: euro.issuer, sn: euro.sn, currency: euro.code, symbol: '€' },
        outIssuer: { id: dollar.issuer, sn: dollar.sn, currency: dollar.code, symbol: '$' },
      });
    });
  });
});
