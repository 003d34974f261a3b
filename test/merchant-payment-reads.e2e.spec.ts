import type { Actor } from './helpers/actors';
import { adminToken, aUser } from './helpers/actors';
import type { CoinBody, IssuerBody } from './helpers/money';
import { aCoin, aCurrency, anIssuer, coinOf, expectBalancedLedger, expectError, expectStatus, fund, twoInstances } from './helpers/money';
import { dbCalls, HEARD_WITHIN_MS, TestServer, within } from './helpers/server';

/**
 * The reads before a merchant payment with a coin (issue 48): that the merchant is one, the payer coin and the
 * merchant's main coin of its currency are kept (src/commerce/merchant-payments/merchant-parties.ts), so a payment
 * between parties already seen runs no statement before its posting. The merchant's main coin can change (set-main, a
 * closure), on this instance, another one or straight in the database: the posting checks the kept coin once it is
 * locked and, if it is no longer the main open one, the payment reads its parties again. The money always goes to the
 * merchant's main open coin, and every refusal answers as it did.
 */
describe('the reads before a merchant payment', () => {
  const servers = twoInstances();
  let a: TestServer;
  let b: TestServer;
  let admin: string;
  let issuer: IssuerBody;

  beforeAll(async () => {
    ({ a, b } = servers);
    admin = await adminToken(a);
    issuer = await anIssuer(a, admin, (await aCurrency(a, admin)).code);
  });

  /** A merchant with its main coin of the issuer's currency, and a customer with a funded coin. */
  const parties = async (): Promise<{ merchant: Actor; till: CoinBody; alice: Actor; wallet: CoinBody }> => {
    const merchant = await aUser(a, admin, { role: 'merchant' });
    const till = await aCoin(a, merchant.token, issuer.id);
    const alice = await aUser(a, admin);
    const wallet = await aCoin(a, alice.token, issuer.id);
    await fund(a, admin, wallet.serial, '100.00');
    return { merchant, till, alice, wallet };
  };
  const pay = (server: TestServer, alice: Actor, wallet: CoinBody, merchant: Actor, amount = '1.00') =>
    server.request('POST', '/api/v1/merchant-payments', {
      token: alice.token,
      body: { merchantId: merchant.organizationId, amount, payer: { method: 'coin', value: wallet.serial } },
    });
  const amountOf = async (owner: Actor, coin: CoinBody): Promise<string> => String((await coinOf(a, owner.token, coin.serial)).amount);

  it('runs no statement before its posting once the merchant, the payer coin and the merchant coin are known', async () => {
    const { merchant, till, alice, wallet } = await parties();
    const cold = await pay(a, alice, wallet, merchant);
    expectStatus(cold, 201);
    // The parties, the fee terms, the posting.
    expect(dbCalls(cold.headers.get('server-timing'))).toBe(3);
    // Warm: only the posting. (A pricing change's NOTIFY heard late may drop the fee terms once: the next payment reads them.)
    const onlyThePosting = await within(HEARD_WITHIN_MS, async () => {
      const warm = await pay(a, alice, wallet, merchant);
      expectStatus(warm, 201);
      return dbCalls(warm.headers.get('server-timing')) === 1;
    });
    expect(onlyThePosting).toBeLessThan(HEARD_WITHIN_MS);
    // Every payment reached the merchant's coin, each once.
    expect(Number(await amountOf(alice, wallet)) + Number(await amountOf(merchant, till))).toBe(100);
    await expectBalancedLedger(a, admin);
  });

  it('pays the new main coin once the merchant moves it, on this instance, another one or in the database', async () => {
    const { merchant, till, alice, wallet } = await parties();
    expectStatus(await pay(a, alice, wallet, merchant), 201);
    expectStatus(await pay(b, alice, wallet, merchant), 201);
    expect(await amountOf(merchant, till)).toBe('2.00');

    // Moved on instance b: both instances pay the new main coin at once.
    const second = await aCoin(a, merchant.token, issuer.id);
    expectStatus(await b.request('POST', '/api/v1/coins/set-main', { token: merchant.token, body: { serial: second.serial } }), 200);
    for (const server of [a, b]) expectStatus(await pay(server, alice, wallet, merchant), 201);
    expect(await amountOf(merchant, second)).toBe('2.00');
    expect(await amountOf(merchant, till)).toBe('2.00');

    // Moved back straight in the database (no NOTIFY, no write this service saw).
    await a.db.query(`UPDATE coins SET main = false WHERE serial = $1::bigint`, [second.serial]);
    await a.db.query(`UPDATE coins SET main = true WHERE serial = $1::bigint`, [till.serial]);
    for (const server of [a, b]) expectStatus(await pay(server, alice, wallet, merchant), 201);
    expect(await amountOf(merchant, till)).toBe('4.00');
    expect(await amountOf(merchant, second)).toBe('2.00');
    expect(await amountOf(alice, wallet)).toBe('94.00');
    await expectBalancedLedger(a, admin);
  });

  it('answers 404 merchant not found once the merchant closes its main coin, and takes no money', async () => {
    const { merchant, till, alice, wallet } = await parties();
    expectStatus(await pay(a, alice, wallet, merchant), 201);
    expectStatus(await pay(b, alice, wallet, merchant), 201);
    const other = await aCoin(a, merchant.token, issuer.id);
    expectStatus(
      await b.request('POST', `/api/v1/close/coin/${till.serial}`, { token: merchant.token, body: { transferToCoinSerial: other.serial } }),
      200,
    );
    // The closed coin was the only main one: no coin of that currency takes payments now.
    for (const server of [a, b]) expectError(await pay(server, alice, wallet, merchant), 404, 'exception.merchant.not_found');
    expect(await amountOf(alice, wallet)).toBe('98.00');
    // Made main, the other coin takes them.
    expectStatus(await a.request('POST', '/api/v1/coins/set-main', { token: merchant.token, body: { serial: other.serial } }), 200);
    for (const server of [a, b]) expectStatus(await pay(server, alice, wallet, merchant), 201);
    expect(await amountOf(merchant, other)).toBe('4.00');
  });

  it('refuses as before with parties kept: another organization’s coin, a non-merchant, a payment to oneself', async () => {
    const { merchant, alice, wallet } = await parties();
    expectStatus(await pay(a, alice, wallet, merchant), 201);
    const mallory = await aUser(a, admin);
    expectError(await pay(a, mallory, wallet, merchant), 404, 'exception.coin.not_found');
    const notMerchant = await aUser(a, admin);
    expectError(await pay(a, alice, wallet, notMerchant), 404, 'exception.merchant.not_found');
    // The merchant paying its own main coin from it.
    const till = (await a.request('GET', '/api/v1/coins', { token: merchant.token })).body.coins[0].serial as string;
    await fund(a, admin, till, '5.00');
    expectError(
      await a.request('POST', '/api/v1/merchant-payments', {
        token: merchant.token,
        body: { merchantId: merchant.organizationId, amount: '1.00', payer: { method: 'coin', value: till } },
      }),
      404,
      'exception.merchant.not_found',
    );
    expect(await amountOf(alice, wallet)).toBe('99.00');
  });
});
