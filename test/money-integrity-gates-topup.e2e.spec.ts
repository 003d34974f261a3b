import type { Actor } from './helpers/actors';
import { DEFAULT_CONTRACTS } from './helpers/commissions';
import { expectCoinsEqualEntries, finishGateTransactions, movedOn } from './helpers/integrity-mix';
import { CoinBody, Dec, expectBalancedLedger } from './helpers/money';
import { generator } from './helpers/random';
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261126);

/**
 * The money-integrity property with gate top-ups and withdrawals in the mix (issue 31): TOPUPs through two acquiring
 * providers' methods and REDEEMs through two payout providers' (one fee kept by the operator, one by the provider) that
 * the provider takes at once, refuses, or confirms later by a signed callback (sent twice), in parallel with transfers; each create and submit retried with its
 * Idempotency-Key, and some submits raced without one. Once every one is finished: each processed TOPUP credited its
 * coin exactly `amountToSend` and each processed REDEEM took `sourceAmount` from it, once, and the others nothing; each coin's balance is the sum of its entries and what the
 * answers said moved; nothing is held or negative; client and system balances sum to zero per currency.
 */
describe(`money integrity with gate top-ups in the mix (issue 31; seed ${SEED})`, () => {
  const world = moneyWorld({ env: { GATE_RECONCILE_SECONDS: '0' } });
  const secret = 'integrity-acquirer-secret-01';

  it('credits each TOPUP and debits each REDEEM once, keeps every balance equal to its entries, in parallel with transfers and callbacks', async () => {
    const { server, admin } = world;
    const random = generator(SEED);
    const acquirer = async (name: string, collector: string, type = 'acquiring') => {
      const provider = (
        await server.request('POST', '/api/v1/gate-providers', {
          token: admin,
          body: { name, type, settings: { secret, failAbove: '90.00', asyncAbove: '60.00', latencyMs: 10 } },
        })
      ).body.gateProvider;
      const product = (
        await server.request('POST', '/api/v1/gate/products', {
          token: admin,
          body: { gateProviderId: provider.id, name: 'Card', currency: world.currency.code, minAmount: '0.01', maxAmount: '100.00' },
        })
      ).body.product;
      const contract = DEFAULT_CONTRACTS.individual;
      const profile = (
        await server.request('POST', `/api/v1/contracts/${contract}/gate-commission-profiles`, {
          token: admin,
          body: { gateProviderId: provider.id },
        })
      ).body.profile;
      const rule = await server.request(
        'POST',
        `/api/v1/contracts/${contract}/gate-commission-profiles/${profile.id}/commission-provider-rule`,
        {
          token: admin,
          body: {
            type: 'fixed_and_percent',
            valuePercent: '1.5',
            valueFixed: '0.10',
            beginDate: '2026-01-01T00:00:00Z',
            endDate: '2036-01-01T00:00:00Z',
            collector,
          },
        },
      );
      expect(rule.status).toBe(201);
      return { provider, way: product.name as string };
    };
    const methods = [await acquirer('Acquirer operator fee', 'operator'), await acquirer('Acquirer own fee', 'provider')];
    const payouts = [await acquirer('Payout operator fee', 'operator', 'payout'), await acquirer('Payout own fee', 'provider', 'payout')];

    const people: { actor: Actor; coin: CoinBody }[] = [];
    /** What each client coin should hold, by what the answers said moved. */
    const expected = new Map<string, InstanceType<typeof Dec>>();
    const add = (serial: string, value: string | number) => expected.set(serial, (expected.get(serial) ?? new Dec(0)).plus(String(value)));
    for (let i = 0; i < 4; i++) {
      const actor = await world.user();
      const coin = await world.coin(actor, '100.00');
      add(coin.serial, '100.00');
      people.push({ actor, coin });
    }
    const amount = () => `${1 + Math.floor(random() * 98)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`;
    const started: { id: string; token: string }[] = [];
    const outcomes = new Map<string, number>();
    const note = (what: string) => outcomes.set(what, (outcomes.get(what) ?? 0) + 1);

    const topUp = async (p: { actor: Actor; coin: CoinBody }, n: string, type: 'TOPUP' | 'REDEEM') => {
      const choices = type === 'TOPUP' ? methods : payouts;
      const { provider, way } = choices[Math.floor(random() * choices.length)];
      const body = { amount: amount(), coin: p.coin.serial, method: { gateProviderId: provider.id, way }, type };
      const create = () =>
        server.request('POST', '/api/v1/gate/transactions', { token: p.actor.token, body, headers: { 'Idempotency-Key': `create-${n}` } });
      const created = await create();
      // A REDEEM holds amount + fee at once: more than the coin can spend is refused, and holds nothing.
      expect(type === 'REDEEM' ? [201, 409] : [201]).toContain(created.status);
      // A refusal spends no key (a retry may find the funds): only a created one is retried here.
      if (created.status === 409) return note('REDEEM 409');
      const retried = await create();
      expect({ status: retried.status, id: retried.body.transaction?.id }).toEqual({ status: 201, id: created.body.transaction.id });
      note(`${type} created`);
      const id = created.body.transaction.id;
      const fields = { optionName: 'default', fields: [] };
      if (random() < 0.3) {
        // Two submits at once without a key: one takes it to the provider, the other is refused.
        const both = await Promise.all(
          [0, 1].map(() => server.request('POST', `/api/v1/gate/transactions/${id}/submit`, { token: p.actor.token, body: fields })),
        );
        expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
        note('raced submit');
      } else {
        const submit = () =>
          server.request('POST', `/api/v1/gate/transactions/${id}/submit`, {
            token: p.actor.token,
            body: fields,
            headers: { 'Idempotency-Key': `submit-${n}` },
          });
        const [first, second] = [await submit(), await submit()];
        expect([first.status, second.status]).toEqual([200, 200]);
        expect(second.body.transaction.id).toBe(id);
        note('retried submit');
      }
      started.push({ id, token: p.actor.token });
    };

    let n = 0;
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(
        Array.from({ length: 12 }, async () => {
          const p = people[Math.floor(random() * people.length)];
          const q = people.filter((x) => x !== p)[Math.floor(random() * (people.length - 1))];
          const r = random();
          if (r < 0.4) return topUp(p, `${SEED}-${n++}`, 'TOPUP');
          if (r < 0.7) return topUp(p, `${SEED}-${n++}`, 'REDEEM');
          const answer = await server.request('POST', '/api/v1/transfers', {
            token: p.actor.token,
            body: { paymentTool: { type: 'COIN', srcValue: p.coin.serial, destValue: q.coin.serial }, amount: amount() },
          });
          expect([201, 409]).toContain(answer.status);
          note(`transfer ${answer.status}`);
          if (answer.status === 201 && answer.body.process.status === 'processed') {
            for (const leg of answer.body.process.transactions) {
              if (expected.has(leg.from.serial)) add(leg.from.serial, new Dec(String(leg.amount)).negated().toFixed());
              if (expected.has(leg.to.serial)) add(leg.to.serial, leg.amount);
            }
          }
        }),
      );
    }

    // Every TOPUP waiting for the provider's confirmation gets it, twice; then all are finished.
    const transactions = await finishGateTransactions(server, started, secret, () => note('called back'));
    const statuses = transactions.reduce<Record<string, number>>((o, t) => ({ ...o, [t.status]: (o[t.status] ?? 0) + 1 }), {});
    const context = { seed: SEED, statuses, outcomes: Object.fromEntries(outcomes) };
    expect({
      context,
      processed: (statuses.processed ?? 0) > 3,
      failure: (statuses.failure ?? 0) > 0,
      calledBack: (outcomes.get('called back') ?? 0) > 0,
      raced: (outcomes.get('raced submit') ?? 0) > 0,
      redeemed: transactions.some((t) => t.type === 'REDEEM' && t.status === 'processed'),
      open: transactions.length - (statuses.processed ?? 0) - (statuses.failure ?? 0),
    }).toEqual({ context, processed: true, failure: true, calledBack: true, raced: true, redeemed: true, open: 0 });

    const db = world.raw.db;
    // Each processed TOPUP credited its coin exactly amountToSend, once, and each processed REDEEM took sourceAmount
    // (amount + fee) from it, once; a failed one moved nothing at all.
    for (const t of transactions) {
      const { entries, moved: credited } = await movedOn(db, t.operationId, t.coinSerial);
      expect({ id: t.id, credited: credited.toFixed(2), entries: t.status === 'processed' ? entries.length > 0 : entries.length }).toEqual({
        id: t.id,
        credited:
          t.status !== 'processed'
            ? '0.00'
            : t.type === 'TOPUP'
              ? new Dec(String(t.amountToSend)).toFixed(2)
              : new Dec(String(t.sourceAmount)).negated().toFixed(2),
        entries: t.status === 'processed' ? true : 0,
      });
      if (t.status === 'processed')
        add(t.coinSerial, t.type === 'TOPUP' ? t.amountToSend : new Dec(String(t.sourceAmount)).negated().toFixed());
    }
    for (const c of await expectCoinsEqualEntries(db, world.currency.id, context)) {
      if (c.type === 'client') {
        const row = { context, serial: c.serial };
        expect({ ...row, balance: new Dec(c.balance).toFixed(2) }).toEqual({
          ...row,
          balance: (expected.get(c.serial) ?? new Dec(0)).toFixed(2),
        });
        expect({ ...row, negative: new Dec(c.balance).isNegative() }).toEqual({ ...row, negative: false });
      }
    }
    // No gate_charge (TOPUP) or gate_payment (REDEEM) operation is left pending: each ended with its transaction.
    const [pending] = (
      await db.query(`SELECT count(*)::int AS n FROM operations WHERE type IN ('gate_charge', 'gate_payment') AND status = 'pending'`)
    ).rows;
    expect(pending.n).toBe(0);
    await expectBalancedLedger(server, admin);
  });
});
