import type { Actor } from './helpers/actors';
import { adminToken } from './helpers/actors';
import { CoinBody, Dec, expectBalancedLedger } from './helpers/money';
import { startServer, TestServer } from './helpers/server';
import { moneyWorld } from './helpers/world';

const CLOCK = { SCHEDULER_TEST_CLOCK: 'true', SCHEDULER_POLL_SECONDS: '0' };

/**
 * The kernel's scheduler across instances: two services on one database race over the same due dates of subscriptions,
 * and each due date is run once — paid once, or recorded as failed once —, never twice, whichever instance took it.
 */
describe('scheduler: exactly once per due date across instances', () => {
  const world = moneyWorld({ env: CLOCK });
  let second: TestServer;
  let secondAdmin: string;

  beforeAll(async () => {
    second = await startServer({ ...CLOCK, DATABASE_URL: world.raw.databaseUrl });
    secondAdmin = await adminToken(second);
  });
  afterAll(() => second?.stop());

  const runOn = async (server: TestServer, token: string, today: string) => {
    const answer = await server.request('POST', '/api/v1/scheduler/run', { token, body: { today } });
    expect(answer.status).toBe(200);
    return answer.body.runs as { processed: number; failed: number };
  };

  it('two instances, each called three times at once per date, pay every daily due date once; a payer out of money fails once per date', async () => {
    const payee = await world.user();
    const to = await world.coin(payee);
    // Eight payers of 1.00 a day from 1 January 2040: six can pay all 20 days, two only 5 and 12 of them.
    const funds = ['100.00', '100.00', '100.00', '100.00', '100.00', '100.00', '5.00', '12.00'];
    const payers: Array<{ actor: Actor; coin: CoinBody; id: string; funds: string }> = [];
    for (const amount of funds) {
      const actor = await world.user();
      const coin = await world.coin(actor, amount);
      const template = await world.server.request('POST', '/api/v1/templates/transfer', {
        token: actor.token,
        body: { name: 'Daily', payerCoin: coin.serial, payeeCoin: to.serial, amount: '1.00' },
      });
      expect(template.status).toBe(201);
      const created = await world.server.request('POST', '/api/v1/subscriptions', {
        token: actor.token,
        body: {
          name: 'Daily',
          templateId: template.body.template.id,
          recurringStartDate: '2040-01-01',
          type: 'DAILY',
          frequency: 1,
          expirationType: 'INFINITY',
        },
      });
      expect(created.status).toBe(201);
      payers.push({ actor, coin, id: created.body.subscription.id, funds: amount });
    }
    const totals = { processed: 0, failed: 0 };
    for (const today of ['2040-01-03', '2040-01-09', '2040-01-20']) {
      const passes = await Promise.all(
        [world.server, second, world.server, second, world.server, second].map((server, i) =>
          runOn(server, i % 2 ? secondAdmin : world.admin, today),
        ),
      );
      for (const pass of passes) {
        totals.processed += pass.processed;
        totals.failed += pass.failed;
      }
    }
    // 20 due dates each: 6 × 20 + 5 + 12 paid, the rest failed; each counted by the one instance that ran it.
    expect(totals).toEqual({ processed: 137, failed: 23 });
    const { rows: runs } = await world.raw.db.query(
      `SELECT subject::text AS subject, count(*)::int AS n, count(DISTINCT due_date)::int AS dates,
              count(*) FILTER (WHERE status = 'processed')::int AS paid, count(DISTINCT operation_id)::int AS operations
         FROM scheduled_runs WHERE job = 'subscription' AND subject = ANY($1::uuid[]) GROUP BY subject`,
      [payers.map((p) => p.id)],
    );
    expect(runs).toHaveLength(payers.length);
    for (const run of runs) expect(run).toMatchObject({ n: 20, dates: 20, operations: run.paid });
    // Each payment is one operation, keyed by its subscription and due date, and paid from the subscription's coin.
    const { rows: operations } = await world.raw.db.query(
      `SELECT request_identifier, count(*)::int AS n, sum(amount)::text AS amount FROM operations
        WHERE request_identifier LIKE 'subscription:%' AND to_coin = $1 GROUP BY request_identifier`,
      [to.serial],
    );
    expect(operations).toHaveLength(137);
    expect(operations.every((o: { n: number }) => o.n === 1)).toBe(true);
    for (const payer of payers) {
      const coin = await world.server.request('GET', `/api/v1/coins/${payer.coin.serial}`, { token: payer.actor.token });
      const paid = Dec.min(20, new Dec(payer.funds));
      expect(String(coin.body.coin.amount)).toBe(new Dec(payer.funds).minus(paid).toFixed(2));
      const [mine] = (await second.request('GET', '/api/v1/subscriptions', { token: payer.actor.token })).body.subscriptions;
      expect(mine).toMatchObject({ runs: 20, paid: paid.toFixed(2), nextDueDate: '2040-01-21' });
    }
    const received = await world.server.request('GET', `/api/v1/coins/${to.serial}`, { token: payee.token });
    expect(String(received.body.coin.amount)).toBe('137.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('a due date whose run is recorded is never paid again, even when the subscription is set back to it', async () => {
    const payer = await world.user();
    const [from, to] = await world.pair(payer, await world.user(), '50.00');
    const template = await world.server.request('POST', '/api/v1/templates/transfer', {
      token: payer.token,
      body: { name: 'Once', payerCoin: from.serial, payeeCoin: to.serial, amount: '2.00' },
    });
    const created = await world.server.request('POST', '/api/v1/subscriptions', {
      token: payer.token,
      body: {
        name: 'Once',
        templateId: template.body.template.id,
        recurringStartDate: '2040-01-02',
        type: 'DAILY',
        frequency: 1,
        expirationType: 'INFINITY',
      },
    });
    const id = created.body.subscription.id;
    expect(await runOn(world.server, world.admin, '2040-01-02')).toEqual({ processed: 1, failed: 0 });
    // As a crash between the payment and the subscription's move would leave it, were they not one transaction: the
    // next due date set back to the one already run. The run record refuses a second payment; the subscription moves on.
    await world.raw.db.query(`UPDATE subscriptions SET next_due = '2040-01-02', occurrence = 0 WHERE id = $1`, [id]);
    expect(await runOn(second, secondAdmin, '2040-01-02')).toEqual({ processed: 0, failed: 0 });
    const coin = await world.server.request('GET', `/api/v1/coins/${from.serial}`, { token: payer.token });
    expect(String(coin.body.coin.amount)).toBe('48.00');
    const [mine] = (await world.server.request('GET', '/api/v1/subscriptions', { token: payer.token })).body.subscriptions;
    expect(mine).toMatchObject({
      runs: 1,
      paid: '2.00',
      nextDueDate: '2040-01-03',
      lastRun: { dueDate: '2040-01-02', status: 'processed' },
    });
    expect(await second.waitForLog('was run already')).toBeDefined();
  });
});
