import { aRate, fundReserve } from '../helpers/exchange';
import { aCoin, aCurrency, anIssuer, expectError } from '../helpers/money';
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
});
