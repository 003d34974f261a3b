import type { Actor } from './helpers/actors';
import { adminToken } from './helpers/actors';
import { CoinBody, Dec, expectBalancedLedger, fund, transfer } from './helpers/money';
import { generator } from './helpers/random';
import type { ApiResponse } from './helpers/server';
import { startServer, TestServer } from './helpers/server';
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261126);
const CLOCK = { SCHEDULER_TEST_CLOCK: 'true', SCHEDULER_POLL_SECONDS: '0' };
const STEPS = 12;
const PER_STEP = 24;

/**
 * Money integrity with subscriptions (issue 31): a seeded random mix of transfers (some retried with their
 * Idempotency-Key), top-ups, subscriptions stopped, activated again and deleted, and scheduler passes on two instances of
 * one database, in parallel, while the scheduler's date moves on. Afterwards what client coins hold is what was funded,
 * nothing is negative, every balance is the sum of its entries (the ledger check), a retried key moved money once, and
 * every due date was paid at most once: one operation per subscription key, each the one its run record names.
 */
describe(`money integrity: subscriptions among transfers, on two instances (seed ${SEED}; INTEGRITY_SEED=… to replay)`, () => {
  const world = moneyWorld({ env: CLOCK });
  const random = generator(SEED);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const amount = (max: number) => ((Math.floor(random() * max * 100) + 1) / 100).toFixed(2);
  let second: TestServer;
  let secondAdmin: string;
  let customers: Array<{ actor: Actor; coin: CoinBody }>;
  const subscriptions: Array<{ owner: Actor; id: string }> = [];
  let funded = new Dec(0);
  const outcomes = new Map<string, number>();
  /** Each Idempotency-Key sent, with the operation ids its answers named. */
  const keys = new Map<string, Set<string>>();

  const note = (what: string, response: ApiResponse) => {
    expect({ what, status: response.status < 500 }).toEqual({ what, status: true });
    outcomes.set(`${what} ${response.status}`, (outcomes.get(`${what} ${response.status}`) ?? 0) + 1);
    return response;
  };

  beforeAll(async () => {
    second = await startServer({ ...CLOCK, DATABASE_URL: world.raw.databaseUrl });
    secondAdmin = await adminToken(second);
    customers = [];
    for (let i = 0; i < 6; i++) {
      const actor = await world.user();
      const initial = amount(400);
      funded = funded.plus(initial);
      customers.push({ actor, coin: await world.coin(actor, initial) });
    }
    // Two or three subscriptions each, of every period and expiration, starting in the first days of 2045.
    for (const { actor, coin } of customers) {
      for (let n = 0; n < 2 + Math.floor(random() * 2); n++) {
        const payee = pick(customers.filter((c) => c.coin.serial !== coin.serial));
        const template = await world.server.request('POST', '/api/v1/templates/transfer', {
          token: actor.token,
          body: { name: `T${n}`, payerCoin: coin.serial, payeeCoin: payee.coin.serial, amount: amount(30) },
        });
        expect(template.status).toBe(201);
        const expiration = pick([
          { expirationType: 'INFINITY' },
          { expirationType: 'COUNT', count: 1 + Math.floor(random() * 8) },
          { expirationType: 'AMOUNT', amount: amount(120) },
          { expirationType: 'DATE', endDate: `2045-0${1 + Math.floor(random() * 3)}-15` },
        ]);
        const created = await world.server.request('POST', '/api/v1/subscriptions', {
          token: actor.token,
          body: {
            name: `S${n}`,
            templateId: template.body.template.id,
            recurringStartDate: `2045-01-0${1 + Math.floor(random() * 9)}`,
            type: pick(['DAILY', 'DAILY', 'WEEKLY', 'MONTHLY']),
            frequency: 1 + Math.floor(random() * 3),
            ...expiration,
          },
        });
        expect(created.status).toBe(201);
        subscriptions.push({ owner: actor, id: created.body.subscription.id });
      }
    }
  });
  afterAll(() => second?.stop());

  it('keeps every invariant', async () => {
    for (let step = 0; step < STEPS; step++) {
      const today = new Date(Date.UTC(2045, 0, 1 + step * 6)).toISOString().slice(0, 10);
      const work: Array<() => Promise<unknown>> = [];
      for (let i = 0; i < PER_STEP; i++) {
        const r = random();
        if (r < 0.35) {
          const from = pick(customers);
          const to = pick(customers.filter((c) => c !== from));
          const key = `mix-${step}-${i}`;
          const value = amount(40);
          // Sometimes sent twice at once with one key: it moves once.
          const times = random() < 0.4 ? 2 : 1;
          for (let t = 0; t < times; t++) {
            work.push(async () => {
              const answer = note(
                'transfer',
                await transfer(pick([world.server, second]), from.actor.token, from.coin.serial, to.coin.serial, value, { key }),
              );
              if (answer.status === 201) keys.set(key, (keys.get(key) ?? new Set()).add(answer.body.process.id));
            });
          }
        } else if (r < 0.45) {
          const to = pick(customers);
          const value = amount(60);
          work.push(async () => {
            await fund(world.server, world.admin, to.coin.serial, value);
            funded = funded.plus(value);
          });
        } else if (r < 0.55) {
          const s = pick(subscriptions);
          const action = pick(['stop', 'activate']);
          work.push(async () =>
            note(
              action,
              await pick([world.server, second]).request('PATCH', `/api/v1/subscriptions/${s.id}/${action}`, { token: s.owner.token }),
            ),
          );
        } else if (r < 0.58) {
          const s = pick(subscriptions);
          work.push(async () =>
            note('delete', await world.server.request('DELETE', `/api/v1/subscriptions/${s.id}`, { token: s.owner.token })),
          );
        } else {
          const [server, token] = random() < 0.5 ? [world.server, world.admin] : [second, secondAdmin];
          work.push(async () => note('run', await server.request('POST', '/api/v1/scheduler/run', { token, body: { today } })));
        }
      }
      await Promise.all(work.map((w) => w()));
    }
    // Every kind of work ran, and the scheduler paid and refused.
    for (const what of ['transfer 201', 'run 200', 'stop 200', 'activate 200'])
      expect({ what, ran: outcomes.has(what) }).toEqual({ what, ran: true });
    const db = world.raw.db;
    const { rows: runs } = await db.query(
      `SELECT count(*) FILTER (WHERE status = 'processed')::int AS paid, count(*) FILTER (WHERE status = 'failed')::int AS failed
         FROM scheduled_runs WHERE job = 'subscription'`,
    );
    expect(runs[0].paid).toBeGreaterThan(20);
    expect(runs[0].failed).toBeGreaterThan(0);

    // What client coins hold is what was funded (no fees: money only moved between them), and nothing is negative.
    const { rows: totals } = await db.query(
      `SELECT COALESCE(sum(balance), 0)::text AS total, count(*) FILTER (WHERE balance < 0 OR held < 0 OR balance < held)::int AS negative
         FROM coins WHERE type = 'client' AND currency_id = (SELECT id FROM currencies WHERE code = $1)`,
      [world.currency.code],
    );
    expect({ total: new Dec(totals[0].total).toFixed(2), negative: totals[0].negative }).toEqual({ total: funded.toFixed(2), negative: 0 });
    await expectBalancedLedger(world.server, world.admin);

    // One Idempotency-Key, one operation, however many times it was sent.
    for (const [key, ids] of keys) expect({ key, operations: ids.size }).toEqual({ key, operations: 1 });
    const { rows: keyed } = await db.query(
      `SELECT request_identifier AS key, count(*)::int AS n FROM operations WHERE request_identifier LIKE 'mix-%' GROUP BY request_identifier HAVING count(*) > 1`,
    );
    expect(keyed).toEqual([]);

    // Each due date paid at most once: one operation per subscription key, the one its run record names, of the template's coins.
    const { rows: payments } = await db.query(
      `SELECT o.request_identifier AS key, count(*)::int AS n, count(r.job)::int AS recorded
         FROM operations o LEFT JOIN scheduled_runs r ON r.operation_id = o.id AND r.status = 'processed'
          AND o.request_identifier = 'subscription:' || r.subject || ':' || to_char(r.due_date, 'YYYY-MM-DD')
        WHERE o.request_identifier LIKE 'subscription:%' GROUP BY o.request_identifier`,
    );
    expect(payments.length).toBe(runs[0].paid);
    expect(payments.filter((p: { n: number; recorded: number }) => p.n !== 1 || p.recorded !== 1)).toEqual([]);
    // What each remaining subscription says it paid is what its operations moved.
    const { rows: paid } = await db.query(
      `SELECT s.id, s.paid::text AS paid, COALESCE((SELECT sum(o.amount) FROM operations o
                WHERE o.request_identifier LIKE 'subscription:' || s.id || ':%'), 0)::text AS moved FROM subscriptions s`,
    );
    for (const row of paid)
      expect({ id: row.id, paid: new Dec(row.paid).toFixed(2) }).toEqual({ id: row.id, paid: new Dec(row.moved).toFixed(2) });
  });
});
