import type { Actor } from './helpers/actors';
import { aContract, aProfile, aRule, assignContract, percent } from './helpers/commissions';
import { CoinBody, Dec, expectAnswersReadBack, expectBalancedLedger, expectCoinsMatchAnswers } from './helpers/money';
import { generator } from './helpers/random';
import type { ApiResponse } from './helpers/server';
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261127);
const BATCHES = 5;
const PER_BATCH = 24;
const PER_DAY = '150.00';
const PER_OPERATION = '60.00';
const COUNT_PER_DAY = 8;

/**
 * Money integrity under limit profiles (issue 32), in the style of money-integrity.e2e.spec.ts: customers whose
 * contracts limit their transfers (amount per operation, per day and count per day; one of them also pays a fee) send
 * a seeded random mix of transfers from two coins each — grouped ones without an Idempotency-Key, keyed ones, some
 * retried in parallel with one key, some over the coin's funds or the limit of one operation — in parallel batches.
 * Afterwards, per organization and day, what was moved never passes a limit and is exactly what the kernel counted
 * (refusals counted nothing); every balance is its entries and what the answers said moved, nothing is negative,
 * Σ per currency is unchanged, and each retried key took effect once.
 */
describe(`money integrity: transfers under limits in parallel (seed ${SEED}; INTEGRITY_SEED=… to replay)`, () => {
  const world = moneyWorld();
  const random = generator(SEED);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const amount = (max: number) => ((Math.floor(random() * max) + 1) / 100).toFixed(2);

  let limited: { actor: Actor; coins: CoinBody[] }[];
  let payees: CoinBody[];
  const processed = new Map<string, { transactions: { from: { serial: string }; to: { serial: string }; amount: string }[] }>();
  const outcomes = new Map<string, number>();
  const answers: unknown[] = [];
  const retried = new Map<string, Set<string>>();
  let keys = 0;

  const note = (what: string, response: ApiResponse) => {
    const outcome = `${what} ${response.status}${response.status === 409 ? ` ${response.body.code}` : ''}`;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (response.status < 300 && response.body?.process) {
      processed.set(response.body.process.id, response.body.process);
      answers.push(response.body.process);
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
      const base = `/api/v1/contracts/${contract.id}/commission-profiles/${profile.id}/limit-profiles`;
      for (const body of [
        { qualifier: 'amount', timeUnit: 'per_transaction', value: PER_OPERATION },
        { qualifier: 'amount', timeUnit: 'per_day', value: PER_DAY },
        { qualifier: 'quantity', timeUnit: 'per_day', value: COUNT_PER_DAY },
      ]) {
        const created = await world.server.request('POST', base, { token: world.admin, body: { ...body, active: true } });
        expect(created.status).toBe(201);
      }
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
      note('transfer', await send(actor, pick(coins).serial, pick(payees).serial, amount(5000), `k-${SEED}-${keys++}`));
    },
    async retried() {
      const { actor, coins } = pick(limited);
      const key = `r-${SEED}-${keys++}`;
      const [from, to, value] = [pick(coins).serial, pick(payees).serial, amount(4000)];
      const all = await Promise.all([
        send(actor, from, to, value, key),
        send(actor, from, to, value, key),
        send(actor, from, to, value, key),
      ]);
      for (const a of all) {
        note('retried transfer', a);
        if (a.status === 201) retried.set(key, (retried.get(key) ?? new Set()).add(a.body.process.id));
      }
    },
  };

  it('never moves more than a limit allows, counts exactly what moved, and keeps every balance equal to its entries', async () => {
    const opening = await world.raw.db.query(`SELECT id FROM operations`);
    for (const { id } of opening.rows) {
      const read = await world.server.request('GET', `/api/v1/transactions/${id}`, { token: world.admin });
      if (read.status === 200 && read.body.process?.status === 'processed') processed.set(id, read.body.process);
    }
    const kinds = Object.keys(actions);
    for (let batch = 0; batch < BATCHES; batch++) {
      await Promise.all(Array.from({ length: PER_BATCH }, () => actions[pick(kinds)]()));
    }
    const context = `seed ${SEED}, outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`;
    for (const what of ['transfer 201', 'transfer 409 exception.limit.exceeded', 'retried transfer 201']) {
      expect({ what, context, ran: (outcomes.get(what) ?? 0) > 0 }).toEqual({ what, context, ran: true });
    }
    expect(retried.size).toBeGreaterThan(0);
    for (const [key, ids] of retried) expect({ key, operations: ids.size }).toEqual({ key, operations: 1 });

    const db = world.raw.db;
    // Per organization and UTC day: the transfers written, their sum and count, against the limits and the kernel's count.
    const moved = await db.query(
      `SELECT c.organization_id::text AS organization, date_trunc('day', o.created_at AT TIME ZONE 'UTC')::text AS day,
              sum(o.amount)::text AS total, count(*)::int AS n, max(o.amount)::text AS largest
         FROM operations o JOIN coins c ON c.serial = o.from_coin
        WHERE o.type = 'client_transaction_transfer' AND o.status = 'processed' AND c.organization_id = ANY($1::uuid[])
        GROUP BY 1, 2`,
      [limited.map((l) => l.actor.organizationId)],
    );
    const counted = await db.query(
      `SELECT u.organization_id::text AS organization, u.period_start::text AS day, l.qualifier, u.amount::text, u.count
         FROM limit_usage u JOIN limit_profiles l ON l.id = u.limit_profile_id
        WHERE u.organization_id = ANY($1::uuid[])`,
      [limited.map((l) => l.actor.organizationId)],
    );
    expect(moved.rows.length).toBe(limited.length);
    for (const row of moved.rows) {
      const at = { context, organization: row.organization, day: row.day };
      expect({ ...at, withinDay: new Dec(row.total).lte(PER_DAY), withinCount: row.n <= COUNT_PER_DAY }).toEqual({
        ...at,
        withinDay: true,
        withinCount: true,
      });
      expect({ ...at, withinOperation: new Dec(row.largest).lte(PER_OPERATION) }).toEqual({ ...at, withinOperation: true });
      const usage = counted.rows.filter((u) => u.organization === row.organization && u.day === row.day);
      expect(usage.map((u) => u.qualifier).sort()).toEqual(['amount', 'quantity']);
      for (const u of usage)
        expect({ ...at, amount: new Dec(u.amount).toFixed(2), count: u.count }).toEqual({
          ...at,
          amount: new Dec(row.total).toFixed(2),
          count: row.n,
        });
    }

    const currency = world.currency.id;
    const [closed] = (await db.query(`SELECT COALESCE(sum(balance), 0)::text AS total FROM coins WHERE currency_id = $1`, [currency])).rows;
    expect({ context, total: new Dec(closed.total).toFixed(2) }).toEqual({ context, total: '0.00' });
    await expectCoinsMatchAnswers(db, processed.values(), context, currency);
    await expectBalancedLedger(world.server, world.admin);
    expect(await expectAnswersReadBack(world.server, world.admin, answers)).toBeGreaterThan(10);
  });
});
