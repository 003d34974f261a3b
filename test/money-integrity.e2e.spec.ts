import { Actor } from './helpers/actors';
import { aFee, percent } from './helpers/commissions';
import { aRate, exchange, fundReserve, sumsPerCurrency } from './helpers/exchange';
import { aCoin, aCurrency, anIssuer, CoinBody, Dec, expectBalancedLedger, fund } from './helpers/money';
import type { ApiResponse } from './helpers/server';
import { moneyWorld, MoneyWorld } from './helpers/world';

/**
 * The money-integrity property of issue 13: exchanges, vouchers and card payments only move money.
 * Per currency, the sum of the balances of all coins (client and system coins: reserves, commission,
 * bank settlement) is the same after every one of them, successful or refused, and the ledger check
 * recomputes every balance from its entries.
 */
describe('money only moves: exchanges, vouchers and card payments (issue 13)', () => {
  const world = moneyWorld({ env: { VOUCHER_EXPIRY_SWEEP_SECONDS: '0' } });
  let server: MoneyWorld['server'];
  let admin: string;

  beforeAll(() => {
    ({ server, admin } = world);
  });

  it('keeps Σ balances per currency through a seeded random mix of 60 operations, fees included', async () => {
    const big = await aCurrency(server, admin, { fraction: '1000000000000000000' });
    const bigIssuer = await anIssuer(server, admin, big.code);
    const A = world.currency.code;
    await aRate(server, admin, A, big.code, '1.234567890123456789');
    await aRate(server, admin, big.code, A, '0.810000000000000001');
    await fundReserve(server, admin, world.issuer.id, '500.00');
    await fundReserve(server, admin, bigIssuer.id, '500');

    const people: { actor: Actor; a: CoinBody; b: CoinBody; card: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const actor = await world.user({ role: i % 2 ? 'merchant' : 'individual' });
      const a = await world.coin(actor, '300.00');
      const b = await aCoin(server, actor.token, bigIssuer.id);
      await fund(server, admin, b.serial, '250.5');
      const card = (
        await server.request('POST', '/api/v1/smart-cards', { token: actor.token, body: { coinSerial: a.serial, name: 'Card' } })
      ).body.card.id;
      people.push({ actor, a, b, card });
    }
    // Fees on every flow for the first person: transfers (and card payments), exchanges, vouchers.
    for (const flow of ['client_transaction_transfer', 'exchange', 'voucher']) {
      await aFee(server, admin, {
        organizationId: people[0].actor.organizationId,
        issuerId: world.issuer.id,
        conditions: percent('1.25'),
        flow,
      });
    }

    let seed = 13;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const codes: string[] = [];
    const vouchers: { id: string; owner: Actor }[] = [];
    const before = await sumsPerCurrency(server);
    const outcomes: Record<number, number> = {};
    for (let step = 0; step < 60; step++) {
      const p = people[next(people.length)];
      const q = people[next(people.length)];
      let response: ApiResponse;
      switch (next(6)) {
        case 0:
          response = await exchange(server, p.actor.token, {
            fromCoin: p.a.serial,
            toCoin: p.b.serial,
            amount: `${next(80)}.${String(next(100)).padStart(2, '0')}`.replace(/^0\.00$/, '0.01'),
            direction: 'sell',
          });
          break;
        case 1:
          response = await exchange(server, p.actor.token, {
            fromCoin: p.b.serial,
            toCoin: p.a.serial,
            amount: `${next(40)}.${String(next(100)).padStart(2, '0')}`.replace(/^0\.00$/, '0.01'),
            direction: 'buy',
          });
          break;
        case 2:
          response = await server.request('POST', '/api/v1/vouchers', {
            token: p.actor.token,
            body: { coinSerial: p.a.serial, amount: `${1 + next(60)}.${String(next(100)).padStart(2, '0')}` },
          });
          if (response.status === 201) {
            codes.push(response.body.code);
            vouchers.push({ id: response.body.voucher.id, owner: p.actor });
          }
          break;
        case 3:
          response = codes.length
            ? await server.request('POST', '/api/v1/vouchers/redeem', {
                token: q.actor.token,
                body: { code: codes[next(codes.length)], coinSerial: q.a.serial },
              })
            : await server.request('GET', '/api/v1/smart-cards/my', { token: q.actor.token });
          break;
        case 4: {
          const v = vouchers.length ? vouchers[next(vouchers.length)] : undefined;
          response = v
            ? await server.request('POST', `/api/v1/vouchers/${v.id}/block`, { token: v.owner.token })
            : await server.request('GET', '/api/v1/smart-cards/my', { token: q.actor.token });
          break;
        }
        default:
          response = await server.request('POST', '/api/v1/transfers', {
            token: p.actor.token,
            body: { paymentTool: { type: 'SMART_CARD', srcValue: p.card, destValue: q.card }, amount: `${next(90)}.50` },
          });
      }
      outcomes[response.status] = (outcomes[response.status] ?? 0) + 1;
      expect(response.status).toBeLessThan(500);
      const now = await sumsPerCurrency(server);
      for (const code of Object.keys(before)) {
        expect({ step, code, same: new Dec(now[code] ?? '0').eq(before[code]) }).toEqual({ step, code, same: true });
      }
    }
    // The mix moved money and was refused sometimes (insufficient funds, redeemed, blocked, same coin).
    expect({ outcomes, moved: (outcomes[201] ?? 0) >= 15, refused: (outcomes[409] ?? 0) >= 5 }).toMatchObject({
      moved: true,
      refused: true,
    });
    // Per currency, every coin's balance sums to zero: the settlement coins hold what the bank top-ups brought in.
    for (const total of Object.values(await sumsPerCurrency(server))) expect(new Dec(total).isZero()).toBe(true);
    await expectBalancedLedger(server, admin);
  });
});
