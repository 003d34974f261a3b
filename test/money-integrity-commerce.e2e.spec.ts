import type { Actor } from './helpers/actors';
import { aFee, percent } from './helpers/commissions';
import { sumsPerCurrency } from './helpers/exchange';
import { CoinBody, Dec, expectAnswersReadBack, expectBalancedLedger } from './helpers/money';
import { generator } from './helpers/random';
import type { ApiResponse } from './helpers/server';
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261126);
const BATCHES = 5;
const PER_BATCH = 12;

/**
 * Money integrity of the family client's commerce calls (issue 31): vouchers bought and redeemed through
 * `/prepaid-coins` (right and wrong PINs, fees on the voucher flow) and payments at a point of sale, in parallel
 * batches, each request sent twice at once under one Idempotency-Key. Afterwards Σ balances per currency is what it
 * was, no client coin is negative, the ledger check recomputes every balance from its entries, and every key took
 * effect once: one voucher per purchase key, one redemption per voucher, one payment per payment key.
 */
describe(`money integrity: /prepaid-coins and payments at a point of sale in parallel (seed ${SEED}; INTEGRITY_SEED=… to replay)`, () => {
  const world = moneyWorld({ env: { VOUCHER_EXPIRY_SWEEP_SECONDS: '0' } });
  const random = generator(SEED);
  const next = (n: number) => Math.floor(random() * n);
  const amount = (max: number) => `${1 + next(max)}.${String(next(100)).padStart(2, '0')}`;

  it('keeps Σ per currency, entries and balances, and takes each key once', async () => {
    const { server, admin } = world;
    const people: { actor: Actor; coin: CoinBody }[] = [];
    for (let i = 0; i < 4; i++) {
      const actor = await world.user();
      people.push({ actor, coin: await world.coin(actor, '200.00') });
    }
    await aFee(server, admin, {
      organizationId: people[0].actor.organizationId,
      issuerId: world.issuer.id,
      conditions: percent('1.25'),
      flow: 'voucher',
    });
    await aFee(server, admin, {
      organizationId: people[1].actor.organizationId,
      issuerId: world.issuer.id,
      conditions: percent('2'),
      flow: 'voucher',
      payer: 'recipient',
    });
    const merchant = await world.user({ role: 'merchant' });
    await world.coin(merchant);
    const pos = (
      await server.request('POST', '/api/v1/points-of-sale', {
        token: merchant.token,
        body: { posCompanyName: 'Integrity kiosk', description: 'Tills' },
      })
    ).body.pos.id;

    const before = await sumsPerCurrency(server);
    const vouchers: { serial: string; pin: string }[] = [];
    const purchases = new Set<string>();
    const redemptions = new Map<string, string>();
    const payments = new Set<string>();
    const answers: unknown[] = [];
    const outcomes: Record<number, number> = {};
    /** The same request twice at once under one key: a retry racing the original. */
    const twice = (path: string, token: string, body: unknown, key: string): Promise<ApiResponse[]> =>
      Promise.all([0, 1].map(() => server.request('POST', `/api/v1${path}`, { token, body, headers: { 'Idempotency-Key': key } })));

    for (let batch = 0; batch < BATCHES; batch++) {
      const known = [...vouchers];
      const steps = Array.from({ length: PER_BATCH }, (_, i) => async () => {
        const key = `mix-${batch}-${i}`;
        const p = people[next(people.length)];
        const kind = next(known.length ? 3 : 2);
        let pair: ApiResponse[];
        if (kind === 0) {
          pair = await twice('/prepaid-coins', p.actor.token, { srcSerial: p.coin.serial, prepaidAmount: amount(60) }, key);
          for (const r of pair.filter((a) => a.status === 201)) {
            purchases.add(r.body.coin.serial);
            if (r.body.pin) vouchers.push({ serial: r.body.coin.serial, pin: r.body.pin });
          }
        } else if (kind === 1) {
          const body = { posId: pos, amount: amount(40), payer: { method: 'coin', value: p.coin.serial } };
          pair = await twice('/merchant-payments', p.actor.token, body, key);
          for (const r of pair.filter((a) => a.status === 201)) payments.add(r.body.payment.id);
        } else {
          const v = known[next(known.length)];
          // Now and then the PIN of another voucher: a 404 that moves nothing.
          const pin = next(4) ? v.pin : known[next(known.length)].pin;
          pair = await twice(`/prepaid-coins/${v.serial}/activate`, p.actor.token, { destSerial: p.coin.serial, prepaidPin: pin }, key);
          for (const r of pair.filter((a) => a.status === 201)) {
            const seen = redemptions.get(v.serial);
            expect(seen === undefined || seen === r.body.process.id).toBe(true);
            redemptions.set(v.serial, r.body.process.id);
          }
        }
        for (const r of pair) {
          outcomes[r.status] = (outcomes[r.status] ?? 0) + 1;
          expect(r.status).toBeLessThan(500);
          if (r.status === 201) answers.push(r.body.process);
        }
        // One key, one effect: the two answers, when both succeeded, are the same operation.
        const done = pair.filter((r) => r.status === 201);
        if (done.length === 2) expect(done[0].body.process.id).toBe(done[1].body.process.id);
      });
      await Promise.all(steps.map((step) => step()));
      const now = await sumsPerCurrency(server);
      for (const code of Object.keys(before))
        expect({ batch, code, same: new Dec(now[code] ?? '0').eq(before[code]) }).toEqual({ batch, code, same: true });
    }

    expect({ moved: (outcomes[201] ?? 0) >= 20, refused: (outcomes[404] ?? 0) + (outcomes[409] ?? 0) >= 1, outcomes }).toMatchObject({
      moved: true,
      refused: true,
    });
    expect({ redeemed: redemptions.size > 0, paid: payments.size > 0, bought: purchases.size > 0 }).toEqual({
      redeemed: true,
      paid: true,
      bought: true,
    });
    const count = async (sql: string) => Number((await server.db.query(sql)).rows[0].n);
    expect(await count(`SELECT count(*)::int AS n FROM vouchers`)).toBe(purchases.size);
    expect(await count(`SELECT count(*)::int AS n FROM operations WHERE type = 'voucher_create'`)).toBe(purchases.size);
    expect(await count(`SELECT count(*)::int AS n FROM operations WHERE type = 'voucher_redeem'`)).toBe(redemptions.size);
    expect(await count(`SELECT count(*)::int AS n FROM vouchers WHERE status = 'processed'`)).toBe(redemptions.size);
    expect(await count(`SELECT count(*)::int AS n FROM merchant_payments`)).toBe(payments.size);
    expect(await count(`SELECT count(*)::int AS n FROM coins WHERE type = 'client' AND balance < 0`)).toBe(0);
    for (const total of Object.values(await sumsPerCurrency(server))) expect(new Dec(total).isZero()).toBe(true);
    await expectBalancedLedger(server, admin);
    expect(await expectAnswersReadBack(server, admin, answers)).toBeGreaterThan(10);
  });
});
