import type { Actor } from './helpers/actors';
import { aContract, aLimit, aProfile, aRule, assignContract, percent } from './helpers/commissions';
import { integrityMix } from './helpers/integrity-mix';
import { CoinBody, Dec, expectAnswersReadBack, expectBalancedLedger, expectCoinsMatchAnswers } from './helpers/money';
import type { ApiResponse } from './helpers/server';
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261127);
const PER_DAY = '150.00';
const PER_OPERATION = '60.00';
const COUNT_PER_DAY = 8;
const PER_LIFE = '1000.00';
const WITHDRAWALS_PER_DAY = '80.00';
const WITHDRAWALS_PER_WEEK = 4;
const BANK = { iban: 'DE89 3704 0044 0532 0130 00', accountHolder: 'Limited customer' };

/**
 * Money integrity under limit profiles (issues 32 and 43), in the style of money-integrity.e2e.spec.ts: customers whose
 * contracts limit their transfers (amount per operation, per day and in their life, count per day; one of them also
 * pays a fee) and their bank withdrawals (amount per day, count per week) send a seeded random mix of transfers from
 * two coins each — grouped ones without an Idempotency-Key, keyed ones, some retried in parallel with one key, some over
 * the coin's funds or the limit of one operation — while staff reverse some of those transfers (some twice at once), and
 * the customers ask for withdrawals that staff accept, decline, or both at once, in parallel batches. Afterwards each
 * limit's running sum in each period is exactly what settled in it — the operations processed, neither reversed nor
 * declined (refusals counted nothing, and what was counted and did not move was given back) — and never passes the
 * limit; every balance is its entries and what the answers said moved, nothing is negative, Σ per currency is
 * unchanged, and each retried key took effect once.
 */
describe(`money integrity: transfers, reversals and withdrawal requests under limits in parallel (seed ${SEED}; INTEGRITY_SEED=… to replay)`, () => {
  const world = moneyWorld();
  const mix = integrityMix(world, { seed: SEED, batches: 5, perBatch: 24 });
  const { random, pick, amount, key } = mix;

  let limited: { actor: Actor; coins: CoinBody[] }[];
  let payees: CoinBody[];
  /** Transfers of the limited customers that staff may still reverse. */
  const reversible: string[] = [];

  const note = (what: string, response: ApiResponse) => {
    mix.tally(`${what} ${response.status}${response.status === 409 ? ` ${response.body.code}` : ''}`);
    if (response.status < 300 && response.body?.process) {
      mix.processed.set(response.body.process.id, response.body.process);
      mix.answers.push(response.body.process);
      if (what.endsWith('transfer') && response.status === 201 && !reversible.includes(response.body.process.id)) {
        reversible.push(response.body.process.id);
      }
    }
    return response;
  };

  beforeAll(async () => {
    limited = [];
    for (let i = 0; i < 4; i++) {
      const actor = await world.user();
      const contract = await aContract(world.server, world.admin);
      const profile = await aProfile(world.server, world.admin, contract.id, world.issuer.id);
      if (i === 0) await aRule(world.server, world.admin, contract.id, profile.id, { conditions: percent('1') });
      await aLimit(world.server, world.admin, contract.id, profile.id, 'amount', 'per_transaction', PER_OPERATION);
      await aLimit(world.server, world.admin, contract.id, profile.id, 'amount', 'per_day', PER_DAY);
      await aLimit(world.server, world.admin, contract.id, profile.id, 'quantity', 'per_day', COUNT_PER_DAY);
      await aLimit(world.server, world.admin, contract.id, profile.id, 'amount', 'per_life', PER_LIFE);
      const withdrawals = await aProfile(world.server, world.admin, contract.id, world.issuer.id, 'bank_withdrawal');
      await aLimit(world.server, world.admin, contract.id, withdrawals.id, 'amount', 'per_day', WITHDRAWALS_PER_DAY);
      await aLimit(world.server, world.admin, contract.id, withdrawals.id, 'quantity', 'per_week', WITHDRAWALS_PER_WEEK);
      await assignContract(world.server, world.admin, actor.organizationId, contract.id);
      limited.push({ actor, coins: [await world.coin(actor, '100.00'), await world.coin(actor, '40.00')] });
    }
    payees = [];
    for (let i = 0; i < 2; i++) payees.push(await world.coin(await world.user()));
  });

  const send = (actor: Actor, from: string, to: string, value: string, key?: string) =>
    world.server.request('POST', '/api/v1/transfers', {
      token: actor.token,
      headers: key ? { 'Idempotency-Key': key } : {},
      body: { paymentTool: { type: 'COIN', srcValue: from, destValue: to }, amount: value },
    });

  const actions: Record<string, () => Promise<unknown>> = {
    async grouped() {
      const { actor, coins } = pick(limited);
      note('transfer', await send(actor, pick(coins).serial, pick(payees).serial, amount(7000)));
    },
    async keyed() {
      const { actor, coins } = pick(limited);
      note('transfer', await send(actor, pick(coins).serial, pick(payees).serial, amount(5000), key('k')));
    },
    async retried() {
      const { actor, coins } = pick(limited);
      const retry = key('r');
      const [from, to, value] = [pick(coins).serial, pick(payees).serial, amount(4000)];
      await mix.thrice('retried transfer', retry, () => send(actor, from, to, value, retry), note);
    },
    async reversal() {
      // The draws come first, so a seed draws the same numbers whatever the answers' timing.
      const [which, twice] = [random(), random() < 0.3];
      if (!reversible.length) return;
      const [id] = reversible.splice(Math.floor(which * reversible.length), 1);
      const reverse = () => world.server.request('POST', `/api/v1/transactions/${id}/reverse`, { token: world.admin, body: {} });
      for (const r of await Promise.all(twice ? [reverse(), reverse()] : [reverse()])) note('reverse', r);
    },
    async withdrawal() {
      const { actor, coins } = pick(limited);
      const [coin, value, draw] = [pick(coins), amount(4000), random()];
      const decisions = draw < 0.4 ? ['accept' as const] : draw < 0.8 ? ['decline' as const] : (['accept', 'decline'] as const);
      const asked = note(
        'withdrawal',
        await world.server.request('POST', '/api/v1/bank-withdrawals/create-request', {
          token: actor.token,
          body: { coinSerial: coin.serial, amount: value, bankDetails: BANK },
        }),
      );
      if (asked.status !== 201) return;
      const decide = (decision: 'accept' | 'decline') =>
        world.server.request('POST', `/api/v1/bank-withdrawals/${asked.body.bankWithdrawal.id}/${decision}`, {
          token: world.admin,
          body: decision === 'decline' ? { reason: 'Checked' } : undefined,
        });
      const answered = await Promise.all(decisions.map(decide));
      answered.forEach((r, i) => note(decisions[i], r));
    },
  };

  it('never moves more than a limit allows, counts exactly what settled (a reversal or a decline gives back), and keeps every balance equal to its entries', async () => {
    await mix.readOpening();
    await mix.run(actions);
    mix.expectRan([
      'transfer 201',
      'transfer 409 exception.limit.exceeded',
      'retried transfer 201',
      'reverse 201',
      'withdrawal 201',
      'accept 200',
      'decline 200',
    ]);
    mix.expectRetriedOnce();
    const context = mix.context();

    const db = world.raw.db;
    const organizations = limited.map((l) => l.actor.organizationId);
    // No transfer passed the limit of one operation.
    const largest = await db.query(
      `SELECT max(amount)::text AS largest FROM operations WHERE type = 'client_transaction_transfer' AND from_organization_id = ANY($1::uuid[])`,
      [organizations],
    );
    expect({ context, withinOperation: new Dec(largest.rows[0].largest).lte(PER_OPERATION) }).toEqual({ context, withinOperation: true });
    // Every operation that settled in a limit's flow was counted in each of its periodic limits, in the period that
    // holds its time (or the next, when it was written a moment after the check crossed a period's end: the kernel
    // picks the period when it checks, the row's time is its insert's).
    const uncounted = await db.query(
      `SELECT op.id, l.time_unit, e.period_start::text AS period, op.created_at::text AS at
         FROM limit_profiles l JOIN commission_profiles p ON p.id = l.commission_profile_id
         JOIN organizations o ON o.contract_id = p.contract_id
         JOIN operations op ON op.type = p.flow AND op.status = 'processed' AND op.from_organization_id = o.id
         LEFT JOIN limit_usage_entries e ON e.operation_id = op.id AND e.limit_profile_id = l.id
        WHERE o.id = ANY($1::uuid[]) AND l.time_unit <> 'per_transaction'
          AND (e.operation_id IS NULL OR (l.time_unit = 'per_day' AND op.created_at AT TIME ZONE 'UTC' - e.period_start NOT BETWEEN interval '-1 minute' AND interval '1 day'))`,
      [organizations],
    );
    expect({ context, uncounted: uncounted.rows }).toEqual({ context, uncounted: [] });
    // Per limit, organization and period: what settled in it (processed, so neither reversed nor declined, in the
    // limit's flow, paid by the organization; in the period it was counted in), beside what the kernel counted
    // (limit_usage).
    const periods = await db.query(
      `WITH lim AS (
         SELECT l.id, l.qualifier, l.time_unit, l.value, p.flow, o.id AS organization_id
           FROM limit_profiles l JOIN commission_profiles p ON p.id = l.commission_profile_id
           JOIN organizations o ON o.contract_id = p.contract_id
          WHERE o.id = ANY($1::uuid[]) AND l.time_unit <> 'per_transaction'),
       settled AS (
         SELECT lim.id, lim.organization_id, e.period_start, sum(op.amount) AS amount, count(*)::int AS count
           FROM lim JOIN operations op ON op.type = lim.flow AND op.status = 'processed' AND op.from_organization_id = lim.organization_id
           JOIN limit_usage_entries e ON e.operation_id = op.id AND e.limit_profile_id = lim.id
          GROUP BY 1, 2, 3),
       counted AS (SELECT u.* FROM limit_usage u JOIN lim ON lim.id = u.limit_profile_id AND lim.organization_id = u.organization_id)
       SELECT lim.flow, lim.qualifier, lim.time_unit, lim.value::text AS value, lim.organization_id::text AS organization,
              COALESCE(s.period_start, c.period_start)::text AS period,
              COALESCE(s.amount, 0)::text AS settled_amount, COALESCE(s.count, 0) AS settled_count,
              c.amount::text AS counted_amount, c.count AS counted_count
         FROM settled s
         FULL JOIN counted c ON c.limit_profile_id = s.id AND c.organization_id = s.organization_id AND c.period_start = s.period_start
         JOIN lim ON lim.id = COALESCE(s.id, c.limit_profile_id) AND lim.organization_id = COALESCE(s.organization_id, c.organization_id)
        ORDER BY 1, 2, 3, 5, 6`,
      [organizations],
    );
    // Every period of every limit counted exactly what settled in it — never more than the limit allows.
    expect({ context, flows: [...new Set(periods.rows.map((r) => r.flow))] }).toEqual({
      context,
      flows: ['bank_withdrawal', 'client_transaction_transfer'],
    });
    for (const row of periods.rows) {
      const at = {
        context,
        organization: row.organization,
        flow: row.flow,
        limit: `${row.qualifier} ${row.time_unit}`,
        period: row.period,
      };
      expect({
        ...at,
        counted: row.counted_amount === null ? null : [new Dec(row.counted_amount).toFixed(2), row.counted_count],
      }).toEqual({ ...at, counted: [new Dec(row.settled_amount).toFixed(2), row.settled_count] });
      const used = row.qualifier === 'amount' ? new Dec(row.settled_amount) : new Dec(row.settled_count);
      expect({ ...at, withinLimit: used.lte(row.value) }).toEqual({ ...at, withinLimit: true });
    }
    // Reversed and declined operations were among them: what they counted was given back.
    const undone = await db.query(
      `SELECT status, count(*)::int AS n FROM operations
        WHERE from_organization_id = ANY($1::uuid[]) AND status IN ('reversed', 'declined') GROUP BY status ORDER BY status`,
      [organizations],
    );
    expect({ context, undone: undone.rows.map((r) => r.status) }).toEqual({ context, undone: ['declined', 'reversed'] });

    await mix.expectClosed();
    await expectCoinsMatchAnswers(db, mix.processed.values(), context, world.currency.id);
    await expectBalancedLedger(world.server, world.admin);
    expect(await expectAnswersReadBack(world.server, world.admin, mix.answers)).toBeGreaterThan(10);
  });
});
