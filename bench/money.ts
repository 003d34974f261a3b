/**
 * The money benchmark (issue 3, item 9): `node dist/bench/money.js` after `npm run build`. Everything
 * runs on this machine over loopback, on an embedded PostgreSQL in a temporary directory.
 *
 * 1. Set-up through the API: a currency, an issuer, 50 individual users with 20 coins each (1,000
 *    coins), each coin funded by a bank top-up.
 * 2. `POST /api/v1/transfers` at 32 connections, each request from a random coin (with its owner's
 *    token) to another random coin, beside two bare Fastify + `pg` servers loaded the same way: the
 *    minimal transfer (bench/baseline-minimal.ts: a conditional debit, a credit and one insert in one
 *    transaction, on tables of its own; target ≥ 0.5× with p99 ≤ 2×) and a baseline running the
 *    service's SQL shape (bench/baseline-money.ts; ≥ 0.5×), so the gap to each is visible. The service
 *    runs twice: as clients send transfers without an Idempotency-Key (written in groups: group commit),
 *    then with a key of its own on each (one transaction per transfer, with its stored answer).
 *    Then the scale-out run: N = 1 … BENCH_INSTANCES (default 2) service instances on the one database
 *    behind a round-robin proxy (bench/proxy.ts), the same load, transfers/s for each N.
 * 3. The first page of `POST /api/v1/transactions/view` (pageSize 20, default sort) for the
 *    administrator (sees every operation) and for an individual (sees their organization's), with
 *    ~10k and with ~1M operations (target: 1M within 2× of 10k). The operations table is grown by
 *    SQL: balanced transfers between the client coins, their ledger entries and the coins' balances
 *    in one statement per chunk, so `GET /api/v1/actuator/ledger-check` stays balanced (run at the end).
 *
 * The service and the baseline each run in their own process so the load generator (autocannon, in
 * this process) shares no event loop with them; both get the same pool size (DB_POOL_SIZE). The
 * figures are printed as tables and written to bench/results/money.json. The process exits non-zero
 * only when the benchmark itself fails; a missed target is printed as MISSED (with the EXPLAIN ANALYZE
 * of the first-page queries when a view target is missed).
 *
 * Environment: BENCH_DURATION / BENCH_WARMUP (transfer seconds), BENCH_VIEW_DURATION, BENCH_MONEY_OPERATIONS
 * (the large size), BENCH_GROW_SECONDS (time limit of the bulk load), DB_POOL_SIZE, BENCH_RESULTS_DIR, and
 * BENCH_HOLD_SECONDS: keep the service and the loaded database up that long at the end, for investigation.
 * BENCH_FEE_PERCENT and BENCH_FEE_FIXED (e.g. 1 and 0.01): measure the transfers with a commission rule
 * active — a `fixed_and_percent` fee on transfers of the bench currency in the default individual
 * contract, paid by the sender, so every transfer also credits the issuer's commission coin.
 */
import autocannon from 'autocannon';
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import {
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  Child,
  Comparison,
  Load,
  api,
  comparisonTable,
  compareAtLeast,
  compareAtMost,
  cpuMs,
  fmt,
  loadRow,
  log,
  logMachine,
  login,
  machine,
  measure,
  noteLoadAverage,
  num,
  ratioOf,
  runBench,
  startBaseline,
  startDatabase,
  startLoad,
  startProxy,
  startService,
  table,
  writeResults,
} from './common';

const SETTINGS = {
  users: 50,
  coinsPerUser: 20,
  fundAmount: '1000000.00',
  transferAmount: '0.01',
  transferConnections: 32,
  transferSeconds: num('BENCH_DURATION', 10),
  warmupSeconds: num('BENCH_WARMUP', 2),
  viewConnections: 4,
  viewSeconds: num('BENCH_VIEW_DURATION', 5),
  viewPageSize: 20,
  smallOperations: 10_000,
  largeOperations: num('BENCH_MONEY_OPERATIONS', 1_000_000),
  /** Rows per INSERT while growing the operations table. */
  chunk: 100_000,
  /** Growing stops (and the figures say how far it got) after this long. */
  growSecondsLimit: num('BENCH_GROW_SECONDS', 200),
  setupParallelism: 16,
  bcryptCost: 4,
  dbPoolSize: num('DB_POOL_SIZE', 10),
  /** Service instances of the scale-out run behind the proxy (N = 1 … this); below 2, no scale-out run. */
  instances: num('BENCH_INSTANCES', 2),
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  /** A transfer fee to measure with (none when both are unset). */
  feePercent: process.env.BENCH_FEE_PERCENT ?? null,
  feeFixed: process.env.BENCH_FEE_FIXED ?? null,
};

/** The contract every individual organization gets (seeded by the ContractsAndCommissions migration). */
const DEFAULT_INDIVIDUAL_CONTRACT = '00000000-0000-4000-8000-000000000101';
interface Holder {
  login: string;
  token: string;
  coins: string[];
}

interface ViewFigures {
  operations: number;
  administrator: Load;
  individual: Load;
  administratorTotal: number;
  individualTotal: number;
}

// ── processes ────────────────────────────────────────────────────────────────────────────────

/** The bench's own connection, to grow the operations table; closed before the clean-up stops PostgreSQL. */
let sql: Client | undefined;

async function closeSql(): Promise<void> {
  await sql?.end().catch(() => undefined);
  sql = undefined;
}

/** The answers' status codes are kept and reported; a run fails only when no answer is 2xx. */
const LENIENT = { statusCodes: true };

// ── set-up through the API ───────────────────────────────────────────────────────────────────

/** Runs `work` over `items` with at most `limit` at a time, answers the results in order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index], index);
      }
    }),
  );
  return results;
}

interface Setup {
  adminToken: string;
  currencyId: string;
  issuerId: string;
  holders: Holder[];
  seconds: number;
}

async function setUp(baseUrl: string): Promise<Setup> {
  const started = Date.now();
  const adminToken = await login(baseUrl, ADMIN_LOGIN, ADMIN_PASSWORD);
  const code = `BN${randomBytes(3).toString('hex').toUpperCase()}`;
  const { currency } = await api<{ currency: { id: string } }>(
    baseUrl,
    'POST',
    '/api/v1/currencies',
    { code, name: 'Bench money', fraction: 100 },
    adminToken,
  );
  const { issuer } = await api<{ issuer: { id: string } }>(
    baseUrl,
    'POST',
    '/api/v1/issuers',
    { currencyCode: code, name: 'Bench issuer' },
    adminToken,
  );
  const holders = await mapLimit(
    Array.from({ length: SETTINGS.users }, (_, i) => i),
    SETTINGS.setupParallelism / 2,
    async (i) => {
      const user = { login: `money-${i}-${randomBytes(3).toString('hex')}`, password: `bench-pw-${randomBytes(8).toString('hex')}` };
      await api(baseUrl, 'POST', '/api/v1/users', { ...user, name: `Money bench user ${i}`, role: 'individual' }, adminToken);
      const token = await login(baseUrl, user.login, user.password);
      const coins: string[] = [];
      for (let c = 0; c < SETTINGS.coinsPerUser; c++) {
        const { coin } = await api<{ coin: { serial: string } }>(
          baseUrl,
          'POST',
          '/api/v1/coins',
          { issuerId: issuer.id, name: `Wallet ${c}` },
          token,
        );
        coins.push(coin.serial);
      }
      return { login: user.login, token, coins };
    },
  );
  if (SETTINGS.feePercent !== null || SETTINGS.feeFixed !== null) {
    const profiles = `/api/v1/contracts/${DEFAULT_INDIVIDUAL_CONTRACT}/commission-profiles`;
    const { profile } = await api<{ profile: { id: string } }>(
      baseUrl,
      'POST',
      profiles,
      { flow: 'client_transaction_transfer', issuerId: issuer.id },
      adminToken,
    );
    const commission = { type: 'fixed_and_percent', valuePercent: SETTINGS.feePercent ?? '0', valueFixed: SETTINGS.feeFixed ?? '0' };
    await api(
      baseUrl,
      'POST',
      `${profiles}/${profile.id}/commission-rule`,
      { beginDate: '2020-01-01T00:00:00Z', payer: 'sender', conditions: [{ commission }] },
      adminToken,
    );
    log(`  transfer fee active: ${commission.valuePercent} % + ${commission.valueFixed}, paid by the sender`);
  }
  log(`  ${holders.length} users with ${holders.length * SETTINGS.coinsPerUser} coins; funding each coin…`);
  await mapLimit(
    holders.flatMap((h) => h.coins),
    SETTINGS.setupParallelism,
    (serial) => api(baseUrl, 'POST', '/api/v1/bank-top-ups', { coinSerial: serial, amount: SETTINGS.fundAmount }, adminToken),
  );
  const seconds = (Date.now() - started) / 1000;
  log(`  set-up took ${fmt(seconds)} s`);
  return { adminToken, currencyId: currency.id, issuerId: issuer.id, holders, seconds };
}

// ── growing the operations table by SQL ──────────────────────────────────────────────────────

async function countOperations(db: Client): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM operations');
  return rows[0].n;
}

/**
 * Adds balanced transfers between random pairs of the bench's client coins until the table holds
 * `target` operations: per chunk one statement inserts the operations, their two ledger entries and
 * adds each coin's net movement to its balance, so the ledger stays balanced. Timestamps are spread
 * over the last 30 days. Stops early (and says so) past SETTINGS.growSecondsLimit.
 */
async function growOperations(
  db: Client,
  setup: Setup,
  target: number,
): Promise<{ operations: number; seconds: number; complete: boolean }> {
  const started = Date.now();
  const have = await countOperations(db);
  let missing = Math.max(0, target - have);
  const chunks = Math.ceil(missing / SETTINGS.chunk);
  for (let i = 0; i < chunks && missing > 0; i++) {
    if ((Date.now() - started) / 1000 > SETTINGS.growSecondsLimit) {
      log(`  stopped growing after ${SETTINGS.growSecondsLimit} s`);
      break;
    }
    const rows = Math.min(SETTINGS.chunk, missing);
    await db.query(
      `WITH pairs AS (
         SELECT a, CASE WHEN b >= a THEN b + 1 ELSE b END AS b, amount, ts
           FROM (SELECT floor(random() * n)::int AS a, floor(random() * (n - 1))::int AS b,
                        round((1 + floor(random() * 999))::numeric / 100, 2) AS amount,
                        now() - random() * interval '30 days' AS ts
                   FROM generate_series(1, $1::int), (SELECT count(*)::int AS n FROM bench_coins) k) r
       ), ops AS (
         INSERT INTO operations (type, status, currency_id, amount, from_coin, to_coin, from_organization_id, to_organization_id,
                                 description, created_at, updated_at)
         SELECT 'client_transaction_transfer', 'processed', $2, p.amount, f.serial, t.serial, f.organization_id, t.organization_id, 'bench load', p.ts, p.ts
           FROM pairs p JOIN bench_coins f ON f.idx = p.a JOIN bench_coins t ON t.idx = p.b
         RETURNING id, from_coin, to_coin, from_organization_id, to_organization_id, amount, created_at
       ), entries AS (
         INSERT INTO ledger_entries (operation_id, leg, coin_serial, currency_id, organization_id, amount, created_at)
         SELECT id, 0, from_coin, $2, from_organization_id, -amount, created_at FROM ops
         UNION ALL
         SELECT id, 0, to_coin, $2, to_organization_id, amount, created_at FROM ops
         RETURNING coin_serial, amount
       )
       UPDATE coins c SET balance = c.balance + d.delta, updated_at = now()
         FROM (SELECT coin_serial, sum(amount) AS delta FROM entries GROUP BY coin_serial) d
        WHERE c.serial = d.coin_serial`,
      [rows, setup.currencyId],
    );
    missing -= rows;
    if (chunks > 1) log(`  … ${fmt((target - missing) / 1000, 0)}k operations (${fmt((Date.now() - started) / 1000)} s)`);
  }
  log('  VACUUM ANALYZE…');
  await db.query('VACUUM (ANALYZE) operations, ledger_entries, coins');
  const operations = await countOperations(db);
  return { operations, seconds: (Date.now() - started) / 1000, complete: operations >= target };
}

/**
 * The minimal transfer's own tables (bench/baseline-minimal.ts) in its own database on the same server:
 * one account per bench coin (same ids, so the same requests load both), each with ample funds.
 */
async function seedMinimal(url: string, holders: Holder[]): Promise<void> {
  const client = new Client({ connectionString: url, application_name: 'finapi-money-bench' });
  await client.connect();
  try {
    await client.query(`CREATE TABLE minimal_accounts (id bigint PRIMARY KEY, balance NUMERIC(38,18) NOT NULL CHECK (balance >= 0))`);
    await client.query(
      `CREATE TABLE minimal_transfers (id bigserial PRIMARY KEY, src bigint NOT NULL, dest bigint NOT NULL,
         amount NUMERIC(38,18) NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
    );
    const serials = holders.flatMap((h) => h.coins);
    await client.query(`INSERT INTO minimal_accounts (id, balance) SELECT unnest($1::bigint[]), 1000000`, [serials]);
    await client.query('VACUUM ANALYZE minimal_accounts');
  } finally {
    await client.end();
  }
}

// ── load ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Picks per request a random payer coin (sent with its owner's token) and another random payee coin; `keyed`: each
 * request with an Idempotency-Key of its own.
 */
function transferRequests(
  holders: Holder[],
  path: string,
  body: (src: string, dest: string) => object,
  keyed = false,
): autocannon.RequestSpec[] {
  const coins = holders.flatMap((h) => h.coins.map((serial) => ({ serial, authorization: `Bearer ${h.token}` })));
  return [
    {
      setupRequest: (request) => {
        const payer = coins[Math.floor(Math.random() * coins.length)];
        let payee = coins[Math.floor(Math.random() * (coins.length - 1))];
        if (payee === payer) payee = coins[coins.length - 1];
        return {
          ...request,
          method: 'POST',
          path,
          headers: {
            'content-type': 'application/json',
            authorization: payer.authorization,
            ...(keyed ? { 'idempotency-key': randomUUID() } : {}),
          },
          body: JSON.stringify(body(payer.serial, payee.serial)),
        };
      },
    },
  ];
}

function transferLoad(baseUrl: string, requests: autocannon.RequestSpec[], seconds: number): autocannon.Instance {
  return startLoad(baseUrl, SETTINGS.transferConnections, seconds, { requests });
}

function viewLoad(baseUrl: string, token: string, seconds: number): autocannon.Instance {
  return startLoad(`${baseUrl}/api/v1/transactions/view`, SETTINGS.viewConnections, seconds, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ pageNumber: 0, pageSize: SETTINGS.viewPageSize }),
  });
}

/** Loads `server` with transfers; the CPU per request is `cpu`'s (none for the proxy, which is not the service). */
async function measureTransfers(
  name: string,
  server: Child,
  requests: autocannon.RequestSpec[],
  cpu: Child | null = server,
): Promise<Load> {
  await transferLoad(server.url, requests, SETTINGS.warmupSeconds);
  return measure(name, transferLoad(server.url, requests, SETTINGS.transferSeconds), cpu ?? undefined, LENIENT);
}

async function measureViews(service: Child, setup: Setup, operations: number): Promise<ViewFigures> {
  const individual = setup.holders[0];
  const page = async (token: string): Promise<number> => {
    const answer = await api<{ totalRecords: number; records: unknown[] }>(
      service.url,
      'POST',
      '/api/v1/transactions/view',
      { pageNumber: 0, pageSize: SETTINGS.viewPageSize },
      token,
    );
    if (answer.records.length !== SETTINGS.viewPageSize) throw new Error(`the first page holds ${answer.records.length} records`);
    return answer.totalRecords;
  };
  const administratorTotal = await page(setup.adminToken);
  const individualTotal = await page(individual.token);
  const run = async (name: string, token: string): Promise<Load> => {
    await viewLoad(service.url, token, 1);
    return measure(name, viewLoad(service.url, token, SETTINGS.viewSeconds), service, LENIENT);
  };
  return {
    operations,
    administrator: await run(
      `view as administrator (${fmt(operations, 0)} operations, ${fmt(administratorTotal, 0)} visible)`,
      setup.adminToken,
    ),
    individual: await run(`view as individual (${fmt(individualTotal, 0)} visible)`, individual.token),
    administratorTotal,
    individualTotal,
  };
}

/** EXPLAIN ANALYZE of the first-page queries, printed when the 1M target is missed. */
async function explainViews(db: Client, organizationId: string): Promise<string[]> {
  // The shapes OperationsRepository.search runs for a first page (newest first, no filter).
  const select = `SELECT o.id, (SELECT json_agg(e.id) FROM ledger_entries e WHERE e.operation_id = o.id) AS entries
                    FROM operations o JOIN currencies c ON c.id = o.currency_id`;
  const order = 'ORDER BY o.created_at DESC, o.id DESC';
  const branch = (table: string, limit: number): string =>
    `(SELECT DISTINCT p.created_at, p.operation_id FROM ${table} p WHERE p.organization_id = $1
       ORDER BY p.created_at DESC, p.operation_id DESC LIMIT ${limit})`;
  const plans: string[] = [];
  for (const [title, text, params] of [
    ['administrator page', `${select} ${order} LIMIT 20`, []],
    [
      'individual page',
      `${select} WHERE o.id IN (SELECT operation_id FROM (${branch('ledger_entries', 20)} UNION ${branch('holds', 20)}) t) ${order} LIMIT 20`,
      [organizationId],
    ],
    ['individual count', `SELECT count(*) FROM (${branch('ledger_entries', 1001)} UNION ${branch('holds', 1001)}) t`, [organizationId]],
  ] as const) {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, [...params]);
    plans.push(`-- ${title}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
  return plans;
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const startedAt = new Date();
  logMachine('finapi money bench');
  log(
    `  transfers at ${SETTINGS.transferConnections} connections for ${SETTINGS.transferSeconds} s (after ${SETTINGS.warmupSeconds} s of warm-up)` +
      ` between ${SETTINGS.users * SETTINGS.coinsPerUser} coins; first page of /transactions/view at ${SETTINGS.viewConnections} connections` +
      ` for ${SETTINGS.viewSeconds} s; DB_POOL_SIZE ${SETTINGS.dbPoolSize}`,
  );
  const load1 = noteLoadAverage();

  const urlOf = await startDatabase('finapi-money-bench-', ['bench_money', 'bench_minimal']);
  const databaseUrl = urlOf('bench_money');

  log('Starting the service and setting up through the API…');
  const service = await startService(databaseUrl, SETTINGS);
  const setup = await setUp(service.url);

  sql = new Client({ connectionString: databaseUrl, application_name: 'finapi-money-bench' });
  await sql.connect();
  await sql.query('SET synchronous_commit = off');
  await sql.query(
    `CREATE UNLOGGED TABLE bench_coins AS
       SELECT (row_number() OVER (ORDER BY serial) - 1)::int AS idx, serial, organization_id
         FROM coins WHERE type = 'client' AND issuer_id = $1`,
    [setup.issuerId],
  );
  await sql.query('CREATE UNIQUE INDEX ON bench_coins (idx)');
  const { rows: orgRows } = await sql.query<{ organization_id: string }>('SELECT organization_id FROM coins WHERE serial = $1', [
    setup.holders[0].coins[0],
  ]);

  // ── /transactions/view with ~10k operations
  log(`Growing to ${fmt(SETTINGS.smallOperations, 0)} operations…`);
  const small = await growOperations(sql, setup, SETTINGS.smallOperations);
  log(`First page of /transactions/view with ${fmt(small.operations, 0)} operations:`);
  const viewSmall = await measureViews(service, setup, small.operations);

  // ── transfers: the minimal transfer, the same-SQL baseline, then the service
  log('Transfers, minimal (bare Fastify + pg: conditional debit, credit, one insert):');
  await seedMinimal(urlOf('bench_minimal'), setup.holders);
  const minimal = await startBaseline('baseline-minimal.js', /baseline-minimal listening on/, urlOf('bench_minimal'), SETTINGS.dbPoolSize);
  const minimalTransfers = await measureTransfers(
    `minimal  POST /transfer`,
    minimal,
    transferRequests(setup.holders, '/transfer', (src, dest) => ({ src, dest, amount: SETTINGS.transferAmount })),
  );
  await minimal.stop();
  log('Transfers, baseline (bare Fastify + pg, same SQL shape):');
  const baseline = await startBaseline('baseline-money.js', /baseline-money listening on/, databaseUrl, SETTINGS.dbPoolSize);
  const baselineTransfers = await measureTransfers(
    `baseline POST /transfer`,
    baseline,
    transferRequests(setup.holders, '/transfer', (src, dest) => ({ src, dest, amount: SETTINGS.transferAmount })),
  );
  await baseline.stop();
  log('Transfers, service:');
  const serviceBody = (srcValue: string, destValue: string) => ({
    paymentTool: { type: 'COIN', srcValue, destValue },
    amount: SETTINGS.transferAmount,
  });
  const serviceTransfers = await measureTransfers(
    `service  POST /api/v1/transfers`,
    service,
    transferRequests(setup.holders, '/api/v1/transfers', serviceBody),
  );
  // With an Idempotency-Key a transfer is its own unit of work with its stored answer: outside group commit.
  log('Transfers, service, each with an Idempotency-Key:');
  const keyedTransfers = await measureTransfers(
    `service  POST /api/v1/transfers, Idempotency-Key`,
    service,
    transferRequests(setup.holders, '/api/v1/transfers', serviceBody, true),
  );

  // ── scale-out: N instances on the one database behind the round-robin proxy (N = 1 too, so the proxy's cost is in both)
  const scaleOut: { instances: number; transfers: Load }[] = [];
  if (SETTINGS.instances >= 2) {
    const extra: Child[] = [];
    for (let n = 1; n <= SETTINGS.instances; n++) {
      if (n > 1) extra.push(await startService(databaseUrl, SETTINGS));
      const proxy = await startProxy([service.url, ...extra.map((e) => e.url)]);
      log(`Transfers, ${n} instance(s) behind the proxy:`);
      scaleOut.push({
        instances: n,
        transfers: await measureTransfers(
          `service  POST /api/v1/transfers, ${n} instance(s) behind the proxy`,
          proxy,
          transferRequests(setup.holders, '/api/v1/transfers', serviceBody),
          null,
        ),
      });
      await proxy.stop();
    }
    for (const e of extra) await e.stop();
  }

  // ── /transactions/view with ~1M operations
  log(`Growing to ${fmt(SETTINGS.largeOperations, 0)} operations…`);
  const large = await growOperations(sql, setup, SETTINGS.largeOperations);
  log(`  ${fmt(large.operations, 0)} operations after ${fmt(large.seconds)} s`);
  log(`First page of /transactions/view with ${fmt(large.operations, 0)} operations:`);
  const viewLarge = await measureViews(service, setup, large.operations);

  log('Ledger check…');
  const ledgerStarted = Date.now();
  const ledgerCheck = await api<{ balanced: boolean; checkedCoins: number; checkedOperations: number; mismatches: unknown[] }>(
    service.url,
    'GET',
    '/api/v1/actuator/ledger-check',
    undefined,
    setup.adminToken,
  );
  const ledgerCheckSeconds = (Date.now() - ledgerStarted) / 1000;
  log(
    `  balanced: ${ledgerCheck.balanced} (${ledgerCheck.checkedCoins} coins, ${ledgerCheck.checkedOperations} operations, ${fmt(ledgerCheckSeconds)} s)`,
  );

  const viewComparisons = (caller: 'administrator' | 'individual'): Comparison[] => [
    compareAtMost(`view p50 ms as ${caller}, 1M vs 10k`, viewLarge[caller].latencyMs.p50, viewSmall[caller].latencyMs.p50, 2),
    compareAtMost(`view p99 ms as ${caller}, 1M vs 10k`, viewLarge[caller].latencyMs.p99, viewSmall[caller].latencyMs.p99, 2),
  ];
  const comparisons: Comparison[] = [
    compareAtLeast('transfers/s, service vs minimal transfer', serviceTransfers.requestsPerSecond, minimalTransfers.requestsPerSecond, 0.5),
    compareAtMost('transfer p99 ms, service vs minimal transfer', serviceTransfers.latencyMs.p99, minimalTransfers.latencyMs.p99, 2),
    compareAtLeast('transfers/s, service vs baseline', serviceTransfers.requestsPerSecond, baselineTransfers.requestsPerSecond, 0.5),
    ratioOf('transfer p99 ms, service vs baseline', serviceTransfers.latencyMs.p99, baselineTransfers.latencyMs.p99),
    ...viewComparisons('administrator'),
    ...viewComparisons('individual'),
    ratioOf('transfers/s, service with Idempotency-Key vs minimal', keyedTransfers.requestsPerSecond, minimalTransfers.requestsPerSecond),
  ];
  if (!Number.isNaN(cpuMs(serviceTransfers) + cpuMs(baselineTransfers))) {
    comparisons.push(ratioOf('transfer server CPU ms, baseline / service', cpuMs(baselineTransfers), cpuMs(serviceTransfers)));
  }
  const holdSeconds = num('BENCH_HOLD_SECONDS', 0);
  if (holdSeconds > 0) {
    // For investigation (EXPLAIN ANALYZE against the loaded database): keep everything up for a while.
    log(
      `Holding for ${holdSeconds} s (SIGTERM ends it): service ${service.url} (admin password ${ADMIN_PASSWORD}), database ${databaseUrl}`,
    );
    await new Promise((resolveHold) => setTimeout(resolveHold, holdSeconds * 1000));
  }
  const missed = comparisons.some((c) => c.met === false);
  let plans: string[] | undefined;
  if (comparisons.slice(4).some((c) => c.met === false)) plans = await explainViews(sql, orgRows[0].organization_id);
  await service.stop();

  const transferFailures = [serviceTransfers, keyedTransfers, baselineTransfers, minimalTransfers].reduce(
    (n, f) => n + f.non2xx + f.errors,
    0,
  );
  const row = (name: string, figures: Load): string[] => [...loadRow(name, figures), String(figures.non2xx + figures.errors)];
  const ops = (n: number): string => (n >= 1_000_000 ? `${fmt(n / 1_000_000, 2)}M` : `${fmt(n / 1000, 1)}k`);
  log('');
  log(
    table([
      ['run', 'req/s', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'db CPU ms/req', 'requests', 'non-2xx'],
      row(`minimal  POST /transfer (${SETTINGS.transferConnections} conn)`, minimalTransfers),
      row(`baseline POST /transfer (${SETTINGS.transferConnections} conn)`, baselineTransfers),
      row(`service  POST /api/v1/transfers (${SETTINGS.transferConnections} conn)`, serviceTransfers),
      row(`service  POST /api/v1/transfers, keyed (${SETTINGS.transferConnections} conn)`, keyedTransfers),
      ...scaleOut.map((s) => row(`service via proxy, ${s.instances} instance(s) (${SETTINGS.transferConnections} conn)`, s.transfers)),
      row(`view, administrator, ${ops(viewSmall.operations)} ops (${SETTINGS.viewConnections} conn)`, viewSmall.administrator),
      row(`view, individual,    ${ops(viewSmall.operations)} ops (${SETTINGS.viewConnections} conn)`, viewSmall.individual),
      row(`view, administrator, ${ops(viewLarge.operations)} ops (${SETTINGS.viewConnections} conn)`, viewLarge.administrator),
      row(`view, individual,    ${ops(viewLarge.operations)} ops (${SETTINGS.viewConnections} conn)`, viewLarge.individual),
    ]),
  );
  log('');
  log(
    comparisonTable(comparisons, [
      [
        'transfer non-2xx answers (service + baselines)',
        String(transferFailures),
        '-',
        '-',
        '0',
        transferFailures === 0 ? 'met' : 'MISSED',
      ],
      ['ledger-check balanced', String(ledgerCheck.balanced), '-', '-', 'true', ledgerCheck.balanced ? 'met' : 'MISSED'],
      [
        `operations loaded for the 1M run`,
        fmt(large.operations, 0),
        fmt(SETTINGS.largeOperations, 0),
        '-',
        '-',
        large.complete ? 'met' : 'MISSED',
      ],
    ]),
  );
  if (plans) {
    log('\nA view target was missed; the first-page queries at the large size:');
    for (const plan of plans) log(plan);
  }
  if (missed) log('\nAt least one target was MISSED (see above).');

  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: machine(load1),
    settings: SETTINGS,
    setupSeconds: setup.seconds,
    transfers: {
      minimal: minimalTransfers,
      baseline: baselineTransfers,
      service: serviceTransfers,
      keyed: keyedTransfers,
      ratio: serviceTransfers.requestsPerSecond / baselineTransfers.requestsPerSecond,
      ratioToMinimal: serviceTransfers.requestsPerSecond / minimalTransfers.requestsPerSecond,
      scaleOut,
    },
    view: {
      small: { ...viewSmall, loadSeconds: small.seconds },
      large: { ...viewLarge, loadSeconds: large.seconds, complete: large.complete },
    },
    ledgerCheck: { ...ledgerCheck, mismatches: ledgerCheck.mismatches.slice(0, 20), seconds: ledgerCheckSeconds },
    comparisons,
    ...(plans ? { plans } : {}),
  };
  await writeResults('money.json', results);
}

runBench('money bench', main, closeSql);
