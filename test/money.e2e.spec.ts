import { serviceWorld } from './helpers/world';
import { aUser } from './helpers/actors';

describe('money smoke', () => {
  const world = serviceWorld();

  it('creates a currency, an issuer, coins, tops up and transfers', async () => {
    const currency = await world.server.request('POST', '/api/v1/currencies', {
      token: world.admin,
      body: { code: 'USD', name: 'US dollar', fraction: 100 },
    });
    expect(currency.status).toBe(201);
    const issuer = await world.server.request('POST', '/api/v1/issuers', {
      token: world.admin,
      body: { currencyCode: 'USD', name: 'Bank' },
    });
    expect(issuer.status).toBe(201);
    const alice = await aUser(world.server, world.admin);
    const bob = await aUser(world.server, world.admin);
    const a = await world.server.request('POST', '/api/v1/coins', {
      token: alice.token,
      body: { issuerId: issuer.body.issuer.id, name: 'A' },
    });
    expect(a.status).toBe(201);
    const b = await world.server.request('POST', '/api/v1/coins', {
      token: bob.token,
      body: { issuerId: issuer.body.issuer.id, name: 'B' },
    });
    const topUp = await world.server.request('POST', '/api/v1/bank-top-ups', {
      token: world.admin,
      body: { coinSerial: a.body.coin.serial, amount: '100.00', customInformation: 'ref 1' },
    });
    expect(topUp.status).toBe(201);
    expect(topUp.body.process.customInformation).toBe('ref 1');
    const transfer = await world.server.request('POST', '/api/v1/transfers', {
      token: alice.token,
      headers: { 'idempotency-key': 'k1' },
      body: { paymentTool: { type: 'COIN', srcValue: a.body.coin.serial, destValue: b.body.coin.serial }, amount: 12.5 },
    });
    expect(transfer.status).toBe(201);
    const again = await world.server.request('POST', '/api/v1/transfers', {
      token: alice.token,
      headers: { 'idempotency-key': 'k1' },
      body: { paymentTool: { type: 'COIN', srcValue: a.body.coin.serial, destValue: b.body.coin.serial }, amount: 12.5 },
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.process.id).toBe(transfer.body.process.id);
    const coins = await world.server.request('GET', '/api/v1/coins', { token: alice.token });
    expect(coins.body.coins[0].amount).toBe('87.50');
    const view = await world.server.request('POST', '/api/v1/transactions/view', { token: alice.token, body: {} });
    expect(view.body.totalRecords).toBe(2);
    const check = await world.server.request('GET', '/api/v1/actuator/ledger-check', { token: world.admin });
    expect(check.body).toMatchObject({ balanced: true });
    const close = await world.server.request('POST', `/api/v1/close/coin/${a.body.coin.serial}`, {
      token: alice.token,
      body: { transferToCoinSerial: b.body.coin.serial },
    });
    expect(close.status).toBe(200);
    expect(close.body.coin.active).toBe(false);
  });
});
