/**
 * The money benchmark (issue 3, item 9; issue 34): `node dist/bench/money.js` after `npm run build`. Everything
 * runs on this machine over loopback, on an embedded PostgreSQL in a temporary directory (or on the server of
 * BENCH_DATABASE_URL).
 *
 * 1. Set-up through the API: a currency, an issuer, 50 individual users with 20 coins each (1,000 coins;
 *    BENCH_ORGANIZATIONS=1: one individual owning all 1,000), each coin funded by a bank top-up; for the other
 *    flows, merchants (BENCH_MERCHANTS, 10) with a coin of the bench currency, and a second currency with its
 *    issuer, a rate, both exchange reserves funded and each user a coin of it.
 * 2. Money requests at 32 connections, each from a random coin (with its owner's token), beside two bare
 *    Fastify + `pg` servers loaded the same way: the minimal transfer (bench/baseline-minimal.ts: a conditional
 *    debit, a credit and one insert in one transaction, on tables of its own) and a baseline running the
 *    service's SQL shape (bench/baseline-money.ts), so the gap to each is visible. The service runs: transfers
 *    without an Idempotency-Key (group commit), transfers each with a key of its own, merchant payments (payer
 *    method `coin`, to a random merchant) without and with a key, exchanges (sell 0.01 of the bench currency
 *    for the second one), then — once every run without a fee is done — transfers priced by a fee rule (1 % +
 *    0.01 paid by the sender by default). The minimal transfer runs twice, before the service's runs and after its
 *    exchanges, and each of the service's runs is compared with the mean of the two (a shared machine's speed drifts
 *    over the minutes between them). Targets (issue 48): transfers ≥ 1.0× the minimal transfer with p99 ≤ 1.5×, keyed
 *    ≥ 0.9×, merchant payments (keyed or not) and exchanges ≥ 0.8×, with the fee ≥ 0.8× without.
 *    Then the scale-out run: N = 1 … BENCH_INSTANCES (default 2) service instances on the one database
 *    behind a round-robin proxy (bench/proxy.ts), the same load, transfers/s for each N.
 * 3. The first page of `POST /api/v1/transactions/view` (pageSize 20, default sort) for the
 *    administrator (sees every operation) and for an individual (sees their organization's), with
 *    ~10k and with ~1M operations (target: 1M within 2× of 10k). The operations table is grown by
 *    SQL: balanced transfers between the client coins, their ledger entries and the coins' balances
 *    in one statement per chunk, so `GET /api/v1/actuator/ledger-check` stays balanced (run at the end).
 *
 * The service and the baseline each run in their own process so the load generator (autocannon, in
 * this process; BENCH_LOAD=wrk: `wrk` in its own, see bench/wrk.ts) shares no event loop with them; all get
 * the same pool size (DB_POOL_SIZE). The figures are printed as tables and written to bench/results/money.json.
 * The process exits non-zero only when the benchmark itself fails; a missed target or a non-2xx answer is
 * printed as MISSED (with the EXPLAIN ANALYZE of the first-page queries when a view target is missed).
 *
 * Environment: BENCH_DURATION / BENCH_WARMUP (seconds per money run), BENCH_VIEW_DURATION, BENCH_MONEY_OPERATIONS
 * (the large size), BENCH_GROW_SECONDS (time limit of the bulk load), DB_POOL_SIZE, BENCH_RESULTS_DIR,
 * BENCH_HOLD_SECONDS (keep the service and the loaded database up that long at the end, for investigation),
 * BENCH_FEE_PERCENT / BENCH_FEE_FIXED (the fee rule of the fee run), BENCH_ORGANIZATIONS, BENCH_MERCHANTS,
 * BENCH_DATABASE_URL (see bench/common.ts), BENCH_LOAD (autocannon or wrk), and for short runs BENCH_SKIP_VIEWS=1
 * (no search runs, no growing), BENCH_SKIP_FLOWS=1 (transfers only: no merchant payments, exchanges or fee run)
 * and BENCH_INSTANCES=1 (no scale-out run); BENCH_SERVICE (another bundle in dist/) and BENCH_CHILD_OUTPUT (keep each
 * server's output), see bench/common.ts. The service's RSS and heap are sampled through the money runs (bench/memory-sampler.ts).
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
  RUN_COLUMNS,
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
import { memoryRows, sampleMemory } from './memory-sampler';
import { MoneyRequest, wrkLoad } from './wrk';

const COINS = 1000;
const ORGANIZATIONS = Math.min(num('BENCH_ORGANIZATIONS', 50), COINS);

const SETTINGS = {
  /** Individual organizations (one user each) owning the bench's 1,000 coins between them. */
  users: ORGANIZATIONS,
  coinsPerUser: Math.ceil(COINS / ORGANIZATIONS),
  /** Merchants paid by the merchant-payment runs (each with a coin of the bench currency). */
  merchants: num('BENCH_MERCHANTS', 10),
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
  /** The fee rule of the fee run (enabled after every run without it). */
  feePercent: process.env.BENCH_FEE_PERCENT ?? '1',
  feeFixed: process.env.BENCH_FEE_FIXED ?? '0.01',
  /** The load generator: autocannon in this process, or `wrk` in its own (bench/wrk.ts). */
  load: process.env.BENCH_LOAD === 'wrk' ? 'wrk' : 'autocannon',
  skipViews: process.env.BENCH_SKIP_VIEWS === '1',
  skipFlows: process.env.BENCH_SKIP_FLOWS === '1',
  /** The memory run (`npm run bench:memory`): a mixed load for this long instead of every other run; 0: none. */
  mixedSeconds: num('BENCH_MIXED_SECONDS', 0),
  /** Of the memory run, the first seconds are warm-up: the RSS target holds after them. */
  mixedWarmupSeconds: num('BENCH_MIXED_WARMUP', 60),
};

/** The contract every individual organization gets (seeded by the ContractsAndCommissions migration). */
const DEFAULT_INDIVIDUAL_CONTRACT = '00000000-0000-4000-8000-000000000101';
interface Holder {
  login: string;
  token: string;
  coins: string[];
  /** Its coin of the second currency, which its exchanges buy into (set up by setUpFlows). */
  exchangeCoin?: string;
}

/** What the merchant-payment and exchange runs need (setUpFlows). */
interface Flows {
  merchants: string[];
  exchangeCurrency: string;
}

interface ViewFigures {
  operations: number;
  /** Seconds the growing of the operations table took. */
  loadSeconds?: number;
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
  currencyCode: string;
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
  log(`  ${holders.length} users with ${holders.length * SETTINGS.coinsPerUser} coins; funding each coin…`);
  await mapLimit(
    holders.flatMap((h) => h.coins),
    SETTINGS.setupParallelism,
    (serial) => api(baseUrl, 'POST', '/api/v1/bank-top-ups', { coinSerial: serial, amount: SETTINGS.fundAmount }, adminToken),
  );
  const seconds = (Date.now() - started) / 1000;
  log(`  set-up took ${fmt(seconds)} s`);
  return { adminToken, currencyId: currency.id, currencyCode: code, issuerId: issuer.id, holders, seconds };
}

/**
 * The merchants (a merchant user each, with a coin of the bench currency: its main one, where payments go) and the
 * exchange's second currency: its issuer, a rate from the bench currency, both issuers' exchange reserves funded,
 * and for each holder a coin of it.
 */
async function setUpFlows(baseUrl: string, setup: Setup): Promise<Flows> {
  const started = Date.now();
  const { adminToken } = setup;
  const merchants = await mapLimit(
    Array.from({ length: SETTINGS.merchants }, (_, i) => i),
    SETTINGS.setupParallelism / 2,
    async (i) => {
      const user = { login: `shop-${i}-${randomBytes(3).toString('hex')}`, password: `bench-pw-${randomBytes(8).toString('hex')}` };
      const { user: created } = await api<{ user: { members: { organization: { id: string } }[] } }>(
        baseUrl,
        'POST',
        '/api/v1/users',
        { ...user, name: `Bench shop ${i}`, role: 'merchant' },
        adminToken,
      );
      const token = await login(baseUrl, user.login, user.password);
      await api(baseUrl, 'POST', '/api/v1/coins', { issuerId: setup.issuerId, name: 'Till' }, token);
      return created.members[0].organization.id;
    },
  );
  const code = `BX${randomBytes(3).toString('hex').toUpperCase()}`;
  await api(baseUrl, 'POST', '/api/v1/currencies', { code, name: 'Bench money, second', fraction: 100 }, adminToken);
  const { issuer } = await api<{ issuer: { id: string } }>(
    baseUrl,
    'POST',
    '/api/v1/issuers',
    { currencyCode: code, name: 'Bench issuer, second' },
    adminToken,
  );
  await api(baseUrl, 'POST', '/api/v1/exchange-rates', { fromCurrency: setup.currencyCode, toCurrency: code, rate: '1.0' }, adminToken);
  for (const issuerId of [setup.issuerId, issuer.id]) {
    await api(baseUrl, 'POST', '/api/v1/exchange/reserves/fund', { issuerId, amount: SETTINGS.fundAmount }, adminToken);
  }
  await mapLimit(setup.holders, SETTINGS.setupParallelism / 2, async (holder) => {
    const { coin } = await api<{ coin: { serial: string } }>(
      baseUrl,
      'POST',
      '/api/v1/coins',
      { issuerId: issuer.id, name: 'Second wallet' },
      holder.token,
    );
    holder.exchangeCoin = coin.serial;
  });
  log(`  ${merchants.length} merchants, a second currency ${code} with its reserves (${fmt((Date.now() - started) / 1000)} s)`);
  return { merchants, exchangeCurrency: code };
}

/** The fee rule of the fee run: a `fixed_and_percent` fee on transfers of the bench currency in the default individual contract, paid by the sender. */
async function enableFee(baseUrl: string, setup: Setup): Promise<string> {
  const profiles = `/api/v1/contracts/${DEFAULT_INDIVIDUAL_CONTRACT}/commission-profiles`;
  const { profile } = await api<{ profile: { id: string } }>(
    baseUrl,
    'POST',
    profiles,
    { flow: 'client_transaction_transfer', issuerId: setup.issuerId },
    setup.adminToken,
  );
  const commission = { type: 'fixed_and_percent', valuePercent: SETTINGS.feePercent, valueFixed: SETTINGS.feeFixed };
  await api(
    baseUrl,
    'POST',
    `${profiles}/${profile.id}/commission-rule`,
    { beginDate: '2020-01-01T00:00:00Z', payer: 'sender', conditions: [{ commission }] },
    setup.adminToken,
  );
  return `${commission.valuePercent} % + ${commission.valueFixed}, paid by the sender`;
}

/** The issuer's commission coin's balance (text): the fee run checks it grew, i.e. its transfers were priced. */
async function commissionBalance(db: Client, issuerId: string): Promise<string> {
  const { rows } = await db.query<{ balance: string }>(
    `SELECT coalesce(sum(balance), 0)::text AS balance FROM coins WHERE issuer_id = $1 AND type = 'system' AND system_kind = 'commission'`,
    [issuerId],
  );
  return rows[0].balance;
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

/** Vacuums the minimal transfer's accounts again before its second run, so it starts as its first did. */
async function vacuumMinimal(url: string): Promise<void> {
  const client = new Client({ connectionString: url, application_name: 'finapi-money-bench' });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE minimal_accounts');
  } finally {
    await client.end();
  }
}

/**
 * The mean of the minimal transfer's two runs, which every run of the service is compared with: its rate, latencies and
 * CPU per request averaged, its counts added.
 */
function meanOf(a: Load, b: Load): Load {
  const mean = (x: number | undefined, y: number | undefined): number | undefined =>
    x === undefined || y === undefined ? undefined : (x + y) / 2;
  return {
    requestsPerSecond: (a.requestsPerSecond + b.requestsPerSecond) / 2,
    completed: a.completed + b.completed,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
    latencyMs: {
      p50: (a.latencyMs.p50 + b.latencyMs.p50) / 2,
      p90: (a.latencyMs.p90 + b.latencyMs.p90) / 2,
      p99: (a.latencyMs.p99 + b.latencyMs.p99) / 2,
      max: Math.max(a.latencyMs.max, b.latencyMs.max),
      average: (a.latencyMs.average + b.latencyMs.average) / 2,
    },
    durationSeconds: a.durationSeconds + b.durationSeconds,
    serverCpuMsPerRequest: mean(a.serverCpuMsPerRequest, b.serverCpuMsPerRequest),
    eventLoopCpuMsPerRequest: mean(a.eventLoopCpuMsPerRequest, b.eventLoopCpuMsPerRequest),
    dbCpuMsPerRequest: mean(a.dbCpuMsPerRequest, b.dbCpuMsPerRequest),
    loadCpuMsPerRequest: mean(a.loadCpuMsPerRequest, b.loadCpuMsPerRequest),
  };
}

// ── load ─────────────────────────────────────────────────────────────────────────────────────

interface Payer {
  serial: string;
  authorization: string;
  holder: Holder;
}

const payersOf = (holders: Holder[]): Payer[] =>
  holders.flatMap((holder) => holder.coins.map((serial) => ({ serial, authorization: `Bearer ${holder.token}`, holder })));

/** Per request a random payer coin (sent with its owner's token) and another random payee coin. */
function transfers(holders: Holder[], path: string, body: (src: string, dest: string) => object): () => MoneyRequest {
  const coins = payersOf(holders);
  return () => {
    const payer = coins[Math.floor(Math.random() * coins.length)];
    let payee = coins[Math.floor(Math.random() * (coins.length - 1))];
    if (payee === payer) payee = coins[coins.length - 1];
    return { path, authorization: payer.authorization, body: body(payer.serial, payee.serial) };
  };
}

/** Per request a random payer coin paying SETTINGS.transferAmount to a random merchant. */
function merchantPayments(holders: Holder[], flows: Flows): () => MoneyRequest {
  const coins = payersOf(holders);
  return () => {
    const payer = coins[Math.floor(Math.random() * coins.length)];
    const merchantId = flows.merchants[Math.floor(Math.random() * flows.merchants.length)];
    return {
      path: '/api/v1/merchant-payments',
      authorization: payer.authorization,
      body: { merchantId, amount: SETTINGS.transferAmount, payer: { method: 'coin', value: payer.serial } },
    };
  };
}

/** Per request a random coin selling SETTINGS.transferAmount of the bench currency into its owner's coin of the second one. */
function exchanges(holders: Holder[]): () => MoneyRequest {
  const coins = payersOf(holders);
  return () => {
    const payer = coins[Math.floor(Math.random() * coins.length)];
    return {
      path: '/api/v1/exchange',
      authorization: payer.authorization,
      body: { fromCoin: payer.serial, toCoin: payer.holder.exchangeCoin, amount: SETTINGS.transferAmount, direction: 'sell' },
    };
  };
}

/** The service's transfer body between two coins. */
const serviceBody = (srcValue: string, destValue: string) => ({
  paymentTool: { type: 'COIN', srcValue, destValue },
  amount: SETTINGS.transferAmount,
});

/**
 * The memory run (issue 48): at the money runs' connections for BENCH_MIXED_SECONDS, a mix of 70 % transfers, 15 %
 * profile reads (`GET /profiles/my`) and 15 % searches (the first page of `POST /transactions/view`, each as a random
 * holder, over a history that grows with the transfers), the service's RSS sampled every second. The target: the RSS
 * at most 300 MB after the warm-up (BENCH_MIXED_WARMUP seconds).
 */
async function mixedRun(service: Child, setup: Setup, memory: ReturnType<typeof sampleMemory>, startedAt: Date, load1: number) {
  const transfer = transfers(setup.holders, '/api/v1/transfers', serviceBody);
  const holders = setup.holders;
  const run = startLoad(service.url, SETTINGS.transferConnections, SETTINGS.mixedSeconds, {
    requests: [
      {
        setupRequest: (request) => {
          const pick = Math.random();
          if (pick < 0.7) {
            const t = transfer();
            const headers = { 'content-type': 'application/json', authorization: t.authorization };
            return { ...request, method: 'POST', path: t.path, headers, body: JSON.stringify(t.body) };
          }
          const authorization = `Bearer ${holders[Math.floor(Math.random() * holders.length)].token}`;
          if (pick < 0.85) return { ...request, method: 'GET', path: '/api/v1/profiles/my', headers: { authorization }, body: undefined };
          const body = JSON.stringify({ pageNumber: 0, pageSize: SETTINGS.viewPageSize });
          return {
            ...request,
            method: 'POST',
            path: '/api/v1/transactions/view',
            headers: { 'content-type': 'application/json', authorization },
            body,
          };
        },
      },
    ],
  });
  log(`Mixed load for ${SETTINGS.mixedSeconds} s (70 % transfers, 15 % profile reads, 15 % searches), the RSS sampled every second:`);
  const figures = await measure('service  mixed: transfers, profile reads, searches', run, service, LENIENT);
  const memoryFigures = await memory.stop();
  await service.stop();
  const warm = memoryFigures.samples.filter((sample) => sample.at >= SETTINGS.mixedWarmupSeconds);
  const warmPeak = warm.reduce((a, b) => (b.rss > a.rss ? b : a), warm[0] ?? memoryFigures.peak);
  const warmMean = warm.reduce((sum, sample) => sum + sample.rss, 0) / Math.max(warm.length, 1);
  const failures = figures.non2xx + figures.errors;
  log('');
  log(
    table([
      [...RUN_COLUMNS, 'non-2xx'],
      [...loadRow(`service  mixed (${SETTINGS.transferConnections} conn)`, figures), failures ? `${failures} MISSED` : '0'],
    ]),
  );
  const comparisons = [compareAtMost(`RSS MB after ${SETTINGS.mixedWarmupSeconds} s of warm-up (peak) vs 300 MB`, warmPeak.rss, 300, 1)];
  log('');
  log(comparisonTable(comparisons, [['RSS MB after warm-up, mean', fmt(warmMean, 0), '-', '-', '-', 'info']]));
  log('');
  log(
    table([
      ...memoryRows(memoryFigures),
      memoryRows({ ...memoryFigures, peak: warmPeak })[2].map((cell, i) => (i ? cell : 'RSS peak after warm-up')),
    ]),
  );
  if (failures || comparisons.some((c) => c.met === false)) log('\nAt least one target was MISSED (see above).');
  await writeResults('memory.json', {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: machine(load1),
    nodeArgs: process.env.BENCH_NODE_ARGS ?? '',
    settings: { ...SETTINGS, databaseUrl: process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL' : 'embedded' },
    load: figures,
    rssAfterWarmup: { peak: warmPeak, mean: warmMean },
    memory: { peak: memoryFigures.peak, last: memoryFigures.last, samples: memoryFigures.samples },
    comparisons,
  });
}

/** Runs `make`'s requests against `baseUrl` for `seconds` with the configured load generator; `keyed`: each with an Idempotency-Key of its own. */
function moneyLoad(baseUrl: string, make: () => MoneyRequest, keyed: boolean, seconds: number): PromiseLike<autocannon.Result> {
  if (SETTINGS.load === 'wrk') return wrkLoad(baseUrl, SETTINGS.transferConnections, seconds, make, keyed);
  const requests: autocannon.RequestSpec[] = [
    {
      setupRequest: (request) => {
        const r = make();
        return {
          ...request,
          method: 'POST',
          path: r.path,
          headers: {
            'content-type': 'application/json',
            authorization: r.authorization,
            ...(keyed ? { 'idempotency-key': randomUUID() } : {}),
          },
          body: JSON.stringify(r.body),
        };
      },
    },
  ];
  return startLoad(baseUrl, SETTINGS.transferConnections, seconds, { requests });
}

function viewLoad(baseUrl: string, token: string, seconds: number): autocannon.Instance {
  return startLoad(`${baseUrl}/api/v1/transactions/view`, SETTINGS.viewConnections, seconds, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ pageNumber: 0, pageSize: SETTINGS.viewPageSize }),
  });
}

/** The service whose ledger groups measureMoney reports (its address and an administrator's token), once it is set up. */
let groupsOf: { url: string; token: string } | undefined;

/** The ledger's groups so far: how many, and how many postings they wrote (the service's own metrics). */
async function ledgerGroups({ url, token }: { url: string; token: string }): Promise<{ count: number; postings: number }> {
  const res = await fetch(`${url}/api/v1/actuator/prometheus`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  const sample = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { count: sample('finapi_ledger_group_size_count'), postings: sample('finapi_ledger_group_size_sum') };
}

/**
 * Loads `server` with `make`'s requests (warm-up, then measured); the CPU per request is `cpu`'s (none for the proxy, which
 * is not the service). On the service it also says how many postings its groups took on average in the measured part.
 */
async function measureMoney(
  name: string,
  server: Child,
  make: () => MoneyRequest,
  keyed = false,
  cpu: Child | null = server,
): Promise<Load> {
  await moneyLoad(server.url, make, keyed, SETTINGS.warmupSeconds);
  const groups = groupsOf?.url === server.url ? groupsOf : undefined;
  const before = groups && (await ledgerGroups(groups));
  const load = await measure(name, moneyLoad(server.url, make, keyed, SETTINGS.transferSeconds), cpu ?? undefined, LENIENT);
  if (groups && before) {
    const after = await ledgerGroups(groups);
    const [count, postings] = [after.count - before.count, after.postings - before.postings];
    log(`    ledger groups: ${count}, ${postings} postings (${count ? fmt(postings / count, 1) : '-'} a group)`);
  }
  return load;
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
    `  money requests at ${SETTINGS.transferConnections} connections (${SETTINGS.load}) for ${SETTINGS.transferSeconds} s (after ${SETTINGS.warmupSeconds} s of warm-up)` +
      ` between ${SETTINGS.users * SETTINGS.coinsPerUser} coins of ${SETTINGS.users} organization(s); DB_POOL_SIZE ${SETTINGS.dbPoolSize}` +
      (SETTINGS.skipViews
        ? ''
        : `; first page of /transactions/view at ${SETTINGS.viewConnections} connections for ${SETTINGS.viewSeconds} s`),
  );
  const load1 = noteLoadAverage();

  const urlOf = await startDatabase('finapi-money-bench-', ['bench_money', 'bench_minimal']);
  const databaseUrl = urlOf('bench_money');

  log('Starting the service and setting up through the API…');
  const service = await startService(databaseUrl, SETTINGS);
  const setup = await setUp(service.url);
  groupsOf = { url: service.url, token: setup.adminToken };
  const flows = SETTINGS.skipFlows ? undefined : await setUpFlows(service.url, setup);

  // The service's RSS and heap through every run below (issue 48's memory target).
  const memory = sampleMemory(service, setup.adminToken);
  if (SETTINGS.mixedSeconds > 0) return mixedRun(service, setup, memory, startedAt, load1);

  sql = new Client({ connectionString: databaseUrl, application_name: 'finapi-money-bench' });
  await sql.connect();
  await sql.query('SET synchronous_commit = off');
  await sql.query(
    `CREATE UNLOGGED TABLE bench_coins AS
       SELECT (row_number() OVER (ORDER BY serial) - 1)::int AS idx, serial, organization_id
         FROM coins WHERE serial = ANY($1::bigint[])`,
    [setup.holders.flatMap((h) => h.coins)],
  );
  await sql.query('CREATE UNIQUE INDEX ON bench_coins (idx)');
  const { rows: orgRows } = await sql.query<{ organization_id: string }>('SELECT organization_id FROM coins WHERE serial = $1', [
    setup.holders[0].coins[0],
  ]);

  // ── /transactions/view with ~10k operations
  let viewSmall: ViewFigures | undefined;
  if (!SETTINGS.skipViews) {
    log(`Growing to ${fmt(SETTINGS.smallOperations, 0)} operations…`);
    const small = await growOperations(sql, setup, SETTINGS.smallOperations);
    log(`First page of /transactions/view with ${fmt(small.operations, 0)} operations:`);
    viewSmall = { ...(await measureViews(service, setup, small.operations)), loadSeconds: small.seconds };
  }

  // ── transfers: the minimal transfer, the same-SQL baseline, then the service
  const baselineBody = (src: string, dest: string) => ({ src, dest, amount: SETTINGS.transferAmount });
  log('Transfers, minimal (bare Fastify + pg: conditional debit, credit, one insert):');
  await seedMinimal(urlOf('bench_minimal'), setup.holders);
  const measureMinimal = async (when: string): Promise<Load> => {
    const minimal = await startBaseline(
      'baseline-minimal.js',
      /baseline-minimal listening on/,
      urlOf('bench_minimal'),
      SETTINGS.dbPoolSize,
    );
    const load = await measureMoney(`minimal  POST /transfer, ${when}`, minimal, transfers(setup.holders, '/transfer', baselineBody));
    await minimal.stop();
    return load;
  };
  const minimalBefore = await measureMinimal('before');
  log('Transfers, baseline (bare Fastify + pg, same SQL shape):');
  const baseline = await startBaseline('baseline-money.js', /baseline-money listening on/, databaseUrl, SETTINGS.dbPoolSize);
  const baselineTransfers = await measureMoney(`baseline POST /transfer`, baseline, transfers(setup.holders, '/transfer', baselineBody));
  await baseline.stop();
  log('Transfers, service:');
  const serviceTransfers = transfers(setup.holders, '/api/v1/transfers', serviceBody);
  const plainTransfers = await measureMoney(`service  POST /api/v1/transfers`, service, serviceTransfers);
  log('Transfers, service, each with an Idempotency-Key:');
  const keyedTransfers = await measureMoney(`service  POST /api/v1/transfers, Idempotency-Key`, service, serviceTransfers, true);

  // ── the other money flows
  let payments: Load | undefined;
  let keyedPayments: Load | undefined;
  let exchanged: Load | undefined;
  if (flows) {
    log(`Merchant payments, service (payer method coin, to one of ${flows.merchants.length} merchants):`);
    payments = await measureMoney(`service  POST /api/v1/merchant-payments`, service, merchantPayments(setup.holders, flows));
    log('Merchant payments, service, each with an Idempotency-Key:');
    keyedPayments = await measureMoney(
      `service  POST /api/v1/merchant-payments, Idempotency-Key`,
      service,
      merchantPayments(setup.holders, flows),
      true,
    );
    log(`Exchanges, service (sell ${SETTINGS.transferAmount} ${setup.currencyCode} for ${flows.exchangeCurrency}):`);
    exchanged = await measureMoney(`service  POST /api/v1/exchange`, service, exchanges(setup.holders));
  }
  log('Transfers, minimal again, after the runs above:');
  await vacuumMinimal(urlOf('bench_minimal'));
  const minimalAfter = await measureMinimal('after');
  const minimalTransfers = meanOf(minimalBefore, minimalAfter);

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
        transfers: await measureMoney(
          `service  POST /api/v1/transfers, ${n} instance(s) behind the proxy`,
          proxy,
          serviceTransfers,
          false,
          null,
        ),
      });
      await proxy.stop();
    }
    for (const e of extra) await e.stop();
  }

  // ── transfers priced by a fee rule: after every run without it
  let feeTransfers: Load | undefined;
  let feeCharged: boolean | undefined;
  if (flows) {
    const fee = await enableFee(service.url, setup);
    log(`Transfers, service, with a fee rule (${fee}):`);
    const before = await commissionBalance(sql, setup.issuerId);
    feeTransfers = await measureMoney(`service  POST /api/v1/transfers, fee rule`, service, serviceTransfers);
    feeCharged = (await commissionBalance(sql, setup.issuerId)) !== before;
  }

  // ── /transactions/view with ~1M operations
  let viewLarge: (ViewFigures & { complete: boolean }) | undefined;
  if (viewSmall) {
    log(`Growing to ${fmt(SETTINGS.largeOperations, 0)} operations…`);
    const large = await growOperations(sql, setup, SETTINGS.largeOperations);
    log(`  ${fmt(large.operations, 0)} operations after ${fmt(large.seconds)} s`);
    log(`First page of /transactions/view with ${fmt(large.operations, 0)} operations:`);
    viewLarge = { ...(await measureViews(service, setup, large.operations)), loadSeconds: large.seconds, complete: large.complete };
  }

  const memoryFigures = await memory.stop();

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

  const viewComparisons = (caller: 'administrator' | 'individual'): Comparison[] =>
    viewSmall && viewLarge
      ? [
          compareAtMost(`view p50 ms as ${caller}, 1M vs 10k`, viewLarge[caller].latencyMs.p50, viewSmall[caller].latencyMs.p50, 2),
          compareAtMost(`view p99 ms as ${caller}, 1M vs 10k`, viewLarge[caller].latencyMs.p99, viewSmall[caller].latencyMs.p99, 2),
        ]
      : [];
  const viewTargets = [...viewComparisons('administrator'), ...viewComparisons('individual')];
  const rps = (figures: Load): number => figures.requestsPerSecond;
  const comparisons: Comparison[] = [
    compareAtLeast('transfers/s, service vs minimal transfer', rps(plainTransfers), rps(minimalTransfers), 1.0),
    compareAtMost('transfer p99 ms, service vs minimal transfer', plainTransfers.latencyMs.p99, minimalTransfers.latencyMs.p99, 1.5),
    compareAtLeast('transfers/s with Idempotency-Key vs minimal', rps(keyedTransfers), rps(minimalTransfers), 0.9),
    ...(feeTransfers ? [compareAtLeast('transfers/s with a fee rule vs without', rps(feeTransfers), rps(plainTransfers), 0.8)] : []),
    ...(payments ? [compareAtLeast('merchant payments/s vs minimal transfer', rps(payments), rps(minimalTransfers), 0.8)] : []),
    ...(keyedPayments
      ? [compareAtLeast('merchant payments/s with Idempotency-Key vs minimal', rps(keyedPayments), rps(minimalTransfers), 0.8)]
      : []),
    ...(exchanged ? [compareAtLeast('exchanges/s vs minimal transfer', rps(exchanged), rps(minimalTransfers), 0.8)] : []),
    compareAtLeast('transfers/s, service vs baseline (same SQL)', rps(plainTransfers), rps(baselineTransfers), 0.5),
    ratioOf('transfer p99 ms, service vs baseline', plainTransfers.latencyMs.p99, baselineTransfers.latencyMs.p99),
    ...viewTargets,
  ];
  if (!Number.isNaN(cpuMs(plainTransfers) + cpuMs(minimalTransfers))) {
    comparisons.push(ratioOf('transfer server CPU ms, service / minimal', cpuMs(plainTransfers), cpuMs(minimalTransfers)));
    // Issue 48: the service's own CPU per transfer, at most 0.45 ms.
    comparisons.push(compareAtMost('transfer server CPU ms, service vs 0.45 ms', cpuMs(plainTransfers), 0.45, 1));
  }
  const holdSeconds = num('BENCH_HOLD_SECONDS', 0);
  if (holdSeconds > 0) {
    // For investigation (EXPLAIN ANALYZE against the loaded database): keep everything up for a while.
    log(
      `Holding for ${holdSeconds} s (SIGTERM ends it): service ${service.url} (admin password ${ADMIN_PASSWORD}), database ${databaseUrl}`,
    );
    await new Promise((resolveHold) => setTimeout(resolveHold, holdSeconds * 1000));
  }
  let plans: string[] | undefined;
  if (viewTargets.some((c) => c.met === false)) plans = await explainViews(sql, orgRows[0].organization_id);
  await service.stop();

  const moneyRuns: [string, Load | undefined][] = [
    [`minimal  POST /transfer, before`, minimalBefore],
    [`minimal  POST /transfer, after`, minimalAfter],
    [`minimal  POST /transfer, mean`, minimalTransfers],
    [`baseline POST /transfer`, baselineTransfers],
    [`service  POST /api/v1/transfers`, plainTransfers],
    [`service  POST /api/v1/transfers, keyed`, keyedTransfers],
    [`service  POST /api/v1/transfers, fee rule`, feeTransfers],
    [`service  POST /api/v1/merchant-payments`, payments],
    [`service  POST /api/v1/merchant-payments, keyed`, keyedPayments],
    [`service  POST /api/v1/exchange`, exchanged],
    ...scaleOut.map((s): [string, Load] => [`service via proxy, ${s.instances} instance(s)`, s.transfers]),
  ];
  const failures = (figures: Load): number => figures.non2xx + figures.errors;
  const moneyFailures = moneyRuns.reduce((n, [, f]) => n + (f ? failures(f) : 0), 0);
  const row = (name: string, figures: Load): string[] => [
    ...loadRow(name, figures),
    figures.loadCpuMsPerRequest === undefined ? '-' : fmt(figures.loadCpuMsPerRequest, 2),
    failures(figures) ? `${failures(figures)} MISSED` : '0',
  ];
  const ops = (n: number): string => (n >= 1_000_000 ? `${fmt(n / 1_000_000, 2)}M` : `${fmt(n / 1000, 1)}k`);
  const viewRows = (v: ViewFigures | undefined): string[][] =>
    v
      ? [
          row(`view, administrator, ${ops(v.operations)} ops (${SETTINGS.viewConnections} conn)`, v.administrator),
          row(`view, individual,    ${ops(v.operations)} ops (${SETTINGS.viewConnections} conn)`, v.individual),
        ]
      : [];
  log('');
  log(
    table([
      [...RUN_COLUMNS, `${SETTINGS.load} CPU ms/req`, 'non-2xx'],
      ...moneyRuns.flatMap(([name, f]) => (f ? [row(`${name} (${SETTINGS.transferConnections} conn)`, f)] : [])),
      ...viewRows(viewSmall),
      ...viewRows(viewLarge),
    ]),
  );
  log('');
  log(
    comparisonTable(comparisons, [
      ['money non-2xx answers (every run above)', String(moneyFailures), '-', '-', '0', moneyFailures === 0 ? 'met' : 'MISSED'],
      ...(feeCharged === undefined
        ? []
        : [['fee charged in the fee run', String(feeCharged), '-', '-', 'true', feeCharged ? 'met' : 'MISSED']]),
      ['ledger-check balanced', String(ledgerCheck.balanced), '-', '-', 'true', ledgerCheck.balanced ? 'met' : 'MISSED'],
      ...(viewLarge
        ? [
            [
              `operations loaded for the 1M run`,
              fmt(viewLarge.operations, 0),
              fmt(SETTINGS.largeOperations, 0),
              '-',
              '-',
              viewLarge.complete ? 'met' : 'MISSED',
            ],
          ]
        : []),
    ]),
  );
  log('');
  log(table(memoryRows(memoryFigures)));
  if (plans) {
    log('\nA view target was missed; the first-page queries at the large size:');
    for (const plan of plans) log(plan);
  }
  const missed = comparisons.some((c) => c.met === false) || moneyFailures > 0 || !ledgerCheck.balanced || feeCharged === false;
  if (missed) log('\nAt least one target was MISSED (see above).');

  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: machine(load1),
    settings: { ...SETTINGS, databaseUrl: process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL' : 'embedded' },
    setupSeconds: setup.seconds,
    memory: { peak: memoryFigures.peak, last: memoryFigures.last, samples: memoryFigures.samples },
    transfers: {
      minimal: minimalTransfers,
      minimalBefore,
      minimalAfter,
      baseline: baselineTransfers,
      service: plainTransfers,
      keyed: keyedTransfers,
      fee: feeTransfers,
      feeCharged,
      ratio: rps(plainTransfers) / rps(baselineTransfers),
      ratioToMinimal: rps(plainTransfers) / rps(minimalTransfers),
      scaleOut,
    },
    merchantPayments: payments ? { service: payments, keyed: keyedPayments } : undefined,
    exchanges: exchanged,
    view: viewSmall && viewLarge ? { small: viewSmall, large: viewLarge } : undefined,
    ledgerCheck: { ...ledgerCheck, mismatches: ledgerCheck.mismatches.slice(0, 20), seconds: ledgerCheckSeconds },
    comparisons,
    ...(plans ? { plans } : {}),
  };
  await writeResults('money.json', results);
}

runBench('money bench', main, closeSql);
