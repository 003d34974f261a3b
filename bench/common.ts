/**
 * What the two benchmark scripts (bench/run.ts and bench/money.ts) share: the child processes (the
 * built service and a bare baseline), the embedded PostgreSQL in a temporary directory, the API
 * helpers, turning autocannon's results into figures (with the server's CPU time per request), the
 * comparisons and the tables, writing the results, and the clean-up on exit or failure.
 *
 * Each script keeps its own settings, loads, set-up and report; this module holds no settings of its
 * own beyond where the files are.
 */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readdirSync, readFileSync, rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedServer, freePort, startEmbeddedPostgres } from '../src/platform/database/embedded-postgres';

/** The service's bundle; BENCH_SERVICE names another (a copy of an earlier build in dist/, to compare two builds in one sitting). */
const SERVICE_MAIN = process.env.BENCH_SERVICE ? join(__dirname, '..', process.env.BENCH_SERVICE) : join(__dirname, '..', 'finapi.js');
/** The repository root (or the build's parent): the service finds its browser pages from there. */
const ROOT = join(__dirname, '..', '..');
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? join(ROOT, 'bench', 'results');

/** A number from the environment, `fallback` when it is unset, empty or not a positive number. */
export const num = (name: string, fallback: number): number => Number(process.env[name] ?? '') || fallback;

/** The service's administrator password for this run. */
export const ADMIN_LOGIN = 'bench-admin@finapi.local';
export const ADMIN_PASSWORD = `bench-admin-${randomBytes(6).toString('hex')}`;

export interface Load {
  requestsPerSecond: number;
  completed: number;
  non2xx: number;
  errors: number;
  /** Only when summarised with `statusCodes` (see summarise). */
  statusCodes?: Record<string, number>;
  latencyMs: { p50: number; p90: number; p99: number; max: number; average: number };
  durationSeconds: number;
  /** CPU time the server process spent per answered request (Linux only): steadier than rates on a busy machine. */
  serverCpuMsPerRequest?: number;
  /**
   * Of it, the CPU time of the server's main thread (Node's event loop; the rest is libuv's threadpool, bcrypt's work,
   * and V8's helpers): what the service's own code costs a login beside its bcrypt compare, and how busy the thread is
   * that every request of a money run waits for.
   */
  eventLoopCpuMsPerRequest?: number;
  /** CPU time the bench's PostgreSQL server's processes spent per answered request (Linux only). */
  dbCpuMsPerRequest?: number;
  /**
   * When the measured load ran, in seconds since the server process was spawned: the window of its CPU profile to read
   * (BENCH_NODE_ARGS="--cpu-prof …", then bench/profile-phases.ts --from/--to).
   */
  serverWindowSeconds?: [number, number];
  /**
   * CPU time the load generator spent per answered request: this process (autocannon runs in it) and its ended
   * children (wrk); on a machine of few cores that time is taken from the servers it measures.
   */
  loadCpuMsPerRequest?: number;
}

export interface Comparison {
  name: string;
  measured: number;
  reference: number;
  ratio: number;
  /** Absent on the figures shown for information only. */
  target?: string;
  met?: boolean;
}

// ── processes ────────────────────────────────────────────────────────────────────────────────

const children = new Set<ChildProcess>();
let database: EmbeddedServer | undefined;
let workDir: string | undefined;

export interface Child {
  url: string;
  pid: number;
  /** Date.now() when the process was spawned. */
  spawnedAt: number;
  stop(): Promise<void>;
}

/** User + system CPU seconds a process has used so far, from /proc (undefined elsewhere). */
function cpuSeconds(pid: number, mainThread = false): number | undefined {
  try {
    const fields = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8')
      .split(') ')[1]
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime in USER_HZ (100 on Linux)
  } catch {
    return undefined;
  }
}

/** The bench's PostgreSQL server's postmaster (found by startDatabase), whose processes postgresCpuSeconds counts. */
let postmasterPid: number | undefined;

/** A process's parent and its CPU seconds (user + system, with its ended children's), from /proc; undefined when it is gone. */
function procStat(pid: string | number): { ppid: number; seconds: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { ppid: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100 };
  } catch {
    return undefined;
  }
}

/** Whether a local process is PostgreSQL's (its command name is `postgres`). */
function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').includes('(postgres)');
  } catch {
    return false;
  }
}

/**
 * User + system CPU seconds of the bench's PostgreSQL server: its postmaster with the backends that already ended
 * (in the postmaster's children's time) and every process it runs now, so a sum taken later is never smaller.
 * Only that server's: another PostgreSQL on this machine (a test run's, another bench's) is not counted.
 */
function postgresCpuSeconds(): number | undefined {
  if (postmasterPid === undefined) return undefined;
  let total = procStat(postmasterPid)?.seconds;
  if (total === undefined) return undefined;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = procStat(pid);
      if (stat?.ppid === postmasterPid) total += stat.seconds;
    }
  } catch {
    return undefined;
  }
  return total;
}

/** The Node options `npm start` gives the service (a larger young generation: see docs/architecture.md); every server gets them. */
const SERVER_NODE_ARGS = ['--max-semi-space-size=16', '--heap-growing-percent=100'];

/**
 * Starts `node <script>` and resolves once it prints `ready`; its output is kept for errors.
 * BENCH_NODE_ARGS adds Node options to the servers, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
 */
function startChild(name: string, script: string, env: Record<string, string>, ready: RegExp | { health: string }): Promise<Child> {
  const nodeArgs = [...SERVER_NODE_ARGS, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  return new Promise((resolveChild, reject) => {
    const spawnedAt = Date.now();
    const child = spawn(process.execPath, [...nodeArgs, script], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let output = '';
    let started = false;
    const timer = setTimeout(() => fail(new Error(`${name} did not start within 90 s`)), 90_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n--- ${name} output ---\n${output.slice(-4000)}`));
    };
    const url = `http://127.0.0.1:${env.PORT}`;
    const ok = (): void => {
      if (started) return;
      started = true;
      clearTimeout(timer);
      resolveChild({ url, pid: child.pid ?? 0, spawnedAt, stop: () => stopChild(child) });
    };
    // BENCH_CHILD_OUTPUT=<prefix>: each server's whole output also goes to <prefix>.<name>.<pid> (e.g. with --trace-gc).
    const copy = process.env.BENCH_CHILD_OUTPUT ? createWriteStream(`${process.env.BENCH_CHILD_OUTPUT}.${name}.${child.pid}`) : undefined;
    const onData = (chunk: Buffer): void => {
      copy?.write(chunk);
      if (output.length < 100_000) output += chunk.toString('utf8');
      if (ready instanceof RegExp && ready.test(output)) ok();
    };
    // The service says it listens at LOG_LEVEL=info only; its health route answers whatever the level.
    if (!(ready instanceof RegExp)) {
      const poll = (): void => {
        if (started || child.exitCode !== null || child.signalCode !== null) return;
        void fetch(url + ready.health, { signal: AbortSignal.timeout(2000) }).then(
          (r) => (r.status === 200 ? ok() : setTimeout(poll, 100)),
          () => setTimeout(poll, 100),
        );
      };
      poll();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      children.delete(child);
      if (!started) fail(new Error(`${name} exited (${signal ?? code}) before it was ready`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      children.delete(child);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

/** Stops the children and PostgreSQL and removes the temporary directory. */
async function cleanUp(): Promise<void> {
  await Promise.all([...children].map(stopChild));
  await dropExternal();
  await database?.stop().catch(() => undefined);
  database = undefined;
  if (workDir) await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
  workDir = undefined;
}

/** Starts the built service (dist/finapi.js) on a free port of loopback. */
export async function startService(
  databaseUrl: string,
  settings: { bcryptCost: number; logLevel: string; dbPoolSize: number },
): Promise<Child> {
  const port = await freePort();
  return startChild(
    'service',
    SERVICE_MAIN,
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_LOGIN,
      ADMIN_PASSWORD,
      BCRYPT_COST: String(settings.bcryptCost),
      LOG_LEVEL: settings.logLevel,
      DB_POOL_SIZE: String(settings.dbPoolSize),
      TOKEN_TTL_SECONDS: '7200',
    },
    { health: '/api/v1/actuator/health' },
  );
}

/** Starts the round-robin proxy (bench/proxy.ts) in front of `upstreams` on a free port of loopback. */
export async function startProxy(upstreams: string[]): Promise<Child> {
  const port = await freePort();
  return startChild(
    'proxy',
    join(__dirname, 'proxy.js'),
    { PORT: String(port), HOST: '127.0.0.1', UPSTREAMS: upstreams.join(',') },
    /proxy listening on/,
  );
}

/** Starts a bare baseline (`script`, beside this file once built) on a free port of loopback. */
export async function startBaseline(
  script: string,
  ready: RegExp,
  databaseUrl: string,
  dbPoolSize: number,
  env: Record<string, string> = {},
): Promise<Child> {
  const port = await freePort();
  return startChild(
    'baseline',
    join(__dirname, script),
    { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', DB_POOL_SIZE: String(dbPoolSize), ...env },
    ready,
  );
}

/** Databases the bench created on BENCH_DATABASE_URL's server (dropped by the clean-up), with that admin URL. */
let external: { adminUrl: string; names: string[] } | undefined;

/**
 * Creates `databases` on a PostgreSQL server and answers the URL of a database by its name: on the server of
 * BENCH_DATABASE_URL (an admin connection to a server of your own: the databases get a random suffix and are
 * dropped by the clean-up), else on an embedded PostgreSQL started in a new temporary directory (`prefix`…),
 * stopped and removed by the clean-up of runBench.
 */
export async function startDatabase(prefix: string, databases: string[]): Promise<(name: string) => string> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  let serverUrl: string;
  const actual = new Map(databases.map((name) => [name, name]));
  if (adminUrl) {
    const suffix = randomBytes(3).toString('hex');
    for (const name of databases) actual.set(name, `${name}_${suffix}`);
    external = { adminUrl, names: [] };
    serverUrl = adminUrl;
    log(`Using the PostgreSQL server of BENCH_DATABASE_URL (databases ${[...actual.values()].join(', ')}, dropped at the end)`);
  } else {
    workDir = await mkdtemp(join(tmpdir(), prefix));
    await chmod(workDir, 0o755); // as root the server runs as an unprivileged user that must reach its data
    log('Starting PostgreSQL…');
    const server = await startEmbeddedPostgres(join(workDir, 'data'));
    database = server;
    serverUrl = server.url;
  }
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ version: string }>("SELECT current_setting('server_version') AS version");
    const settings = await admin.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM pg_settings
        WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'max_connections', 'wal_buffers', 'full_page_writes')
        ORDER BY name`,
    );
    log(`  PostgreSQL ${rows[0].version}: ${settings.rows.map((r) => `${r.name}=${r.setting}`).join(', ')}`);
    // The server's processes are the postmaster's children: a backend's parent is the postmaster (when the server runs on this machine).
    // (A server elsewhere: that pid is no local postgres process, and its CPU is not counted.)
    const { rows: backend } = await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const ppid = isPostgres(backend[0].pid) ? procStat(backend[0].pid)?.ppid : undefined;
    postmasterPid = ppid && ppid > 1 && isPostgres(ppid) ? ppid : undefined;
    for (const name of databases) {
      await admin.query(`CREATE DATABASE ${actual.get(name)}`);
      external?.names.push(actual.get(name)!);
    }
  } finally {
    await admin.end();
  }
  return (name: string): string => {
    const url = new URL(serverUrl);
    url.pathname = `/${actual.get(name) ?? name}`;
    return url.toString();
  };
}

/** Drops the databases created on BENCH_DATABASE_URL's server (after every child that used them has stopped). */
async function dropExternal(): Promise<void> {
  if (!external?.names.length) return;
  const admin = new Client({ connectionString: external.adminUrl });
  try {
    await admin.connect();
    for (const name of external.names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } catch (error) {
    log(`Could not drop the bench's databases ${external.names.join(', ')}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
  external = undefined;
}

/**
 * Runs a benchmark's `main`, then cleans up (`before` first, then the children, PostgreSQL and the
 * temporary directory), on success, failure (exit 1, `<label> failed: …`) or SIGINT/SIGTERM (exit 130).
 */
export function runBench(label: string, main: () => Promise<void>, before: () => Promise<void> = async () => undefined): void {
  const cleanUpAll = async (): Promise<void> => {
    await before();
    await cleanUp();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      // At once, not after `before`: embedded-postgres's own exit hook stops PostgreSQL and exits this process on the same signal.
      for (const child of children) child.kill('SIGTERM');
      void cleanUpAll().finally(() => process.exit(130));
    });
  }
  // Whatever way this process ends, no server it started outlives it.
  process.once('exit', () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });
  main()
    .then(cleanUpAll)
    .catch(async (error: unknown) => {
      process.stderr.write(`${label} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      await cleanUpAll();
      process.exit(1);
    });
}

// ── HTTP ─────────────────────────────────────────────────────────────────────────────────────

/** One JSON request to the service; throws on an answer other than 2xx. */
export async function api<T = any>(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Logs in through the service's API and answers the token. */
export async function login(baseUrl: string, loginName: string, password: string): Promise<string> {
  const answer = await api<{ authorizationToken: { token: string } }>(baseUrl, 'POST', '/api/v1/authorization', {
    login: loginName,
    password,
  });
  return answer.authorizationToken.token;
}

// ── load ─────────────────────────────────────────────────────────────────────────────────────

/** An autocannon run against `url` for `seconds` at `connections`, with a 30 s request timeout. */
export function startLoad(
  url: string,
  connections: number,
  seconds: number,
  requests: Omit<autocannon.Options, 'url' | 'connections' | 'duration' | 'timeout'>,
): autocannon.Instance {
  return autocannon({ url, connections, duration: seconds, timeout: 30, ...requests });
}

/** Runs a load and summarises it, with the server's CPU time per request when `server` is given. */
export async function measure(name: string, run: PromiseLike<autocannon.Result>, server?: Child, options?: SummaryOptions): Promise<Load> {
  const before = server && cpuSeconds(server.pid);
  const loopBefore = server && cpuSeconds(server.pid, true);
  const dbBefore = postgresCpuSeconds();
  const loadBefore = procStat(process.pid)?.seconds;
  const startedAt = Date.now();
  const result = summarise(name, await run, options);
  if (server) {
    result.serverWindowSeconds = [(startedAt - server.spawnedAt) / 1000, (Date.now() - server.spawnedAt) / 1000];
    if (process.env.BENCH_NODE_ARGS?.includes('--cpu-prof')) {
      const [from, to] = result.serverWindowSeconds;
      log(`    profile window of pid ${server.pid}: --from ${from.toFixed(1)} --to ${to.toFixed(1)} --requests ${result.completed}`);
    }
  }
  const after = server && cpuSeconds(server.pid);
  const loopAfter = server && cpuSeconds(server.pid, true);
  const dbAfter = postgresCpuSeconds();
  const loadAfter = procStat(process.pid)?.seconds;
  if (loadBefore !== undefined && loadAfter !== undefined && result.completed > 0) {
    result.loadCpuMsPerRequest = ((loadAfter - loadBefore) * 1000) / result.completed;
  }
  if (before !== undefined && after !== undefined && result.completed > 0) {
    result.serverCpuMsPerRequest = ((after - before) * 1000) / result.completed;
  }
  if (loopBefore !== undefined && loopAfter !== undefined && result.completed > 0) {
    result.eventLoopCpuMsPerRequest = ((loopAfter - loopBefore) * 1000) / result.completed;
  }
  if (dbBefore !== undefined && dbAfter !== undefined && result.completed > 0) {
    result.dbCpuMsPerRequest = ((dbAfter - dbBefore) * 1000) / result.completed;
  }
  return result;
}

export interface SummaryOptions {
  /** Keep the answers' status codes in the figures, and name the failed answers in the log line. */
  statusCodes?: boolean;
  /** Throw when more than this share of the answers failed (non-2xx or errors); without it, only when none is 2xx. */
  maxFailedShare?: number;
}

/** autocannon's result as figures, logged in one line; throws when the figures would mean nothing. */
export function summarise(name: string, result: autocannon.Result, options: SummaryOptions = {}): Load {
  const completed = result['2xx'];
  const statusCodes = options.statusCodes
    ? Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]))
    : undefined;
  const figures: Load = {
    requestsPerSecond: completed / result.duration,
    completed,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    ...(statusCodes ? { statusCodes } : {}),
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      average: result.latency.average,
    },
    durationSeconds: result.duration,
  };
  const failed = figures.non2xx + figures.errors;
  if (completed === 0 && statusCodes) {
    throw new Error(`${name}: no 2xx answer (status codes ${JSON.stringify(statusCodes)}, ${figures.errors} errors)`);
  }
  if (completed === 0 || (options.maxFailedShare !== undefined && failed > options.maxFailedShare * (completed + failed))) {
    throw new Error(
      `${name}: ${completed} answers 2xx, ${figures.non2xx} other answers, ${figures.errors} errors — the figures would mean nothing`,
    );
  }
  const failures = statusCodes && failed ? ` — ${figures.non2xx} non-2xx ${JSON.stringify(statusCodes)}, ${figures.errors} errors` : '';
  log(`  ${name}: ${fmt(figures.requestsPerSecond)} req/s, p50 ${figures.latencyMs.p50} ms, p99 ${figures.latencyMs.p99} ms${failures}`);
  return figures;
}

/** The server's CPU ms per request, NaN when it is not known. */
export const cpuMs = (figures: Load): number => figures.serverCpuMsPerRequest ?? Number.NaN;

// ── report ───────────────────────────────────────────────────────────────────────────────────

export function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function fmt(value: number, digits = 1): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function compareAtLeast(name: string, measured: number, reference: number, factor: number): Comparison {
  const ratio = measured / reference;
  return { name, measured, reference, ratio, target: `>= ${factor}x`, met: ratio >= factor };
}

export function compareAtMost(name: string, measured: number, reference: number, factor: number): Comparison {
  const ratio = measured / reference;
  return { name, measured, reference, ratio, target: `<= ${factor}x`, met: ratio <= factor };
}

export function ratioOf(name: string, measured: number, reference: number): Comparison {
  return { name, measured, reference, ratio: measured / reference };
}

export function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]): string =>
    `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

/**
 * A row of the runs table: name, req/s, p50 ms, p99 ms, server CPU ms/req, of it the main thread's, PostgreSQL CPU
 * ms/req, requests (RUN_COLUMNS).
 */
/** The runs table's columns of a loadRow. */
export const RUN_COLUMNS = ['run', 'req/s', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'of it, event loop', 'db CPU ms/req', 'requests'];

export function loadRow(name: string, figures: Load): string[] {
  return [
    name,
    fmt(figures.requestsPerSecond),
    fmt(figures.latencyMs.p50, 2),
    fmt(figures.latencyMs.p99, 2),
    figures.serverCpuMsPerRequest === undefined ? '-' : fmt(figures.serverCpuMsPerRequest, 2),
    figures.eventLoopCpuMsPerRequest === undefined ? '-' : fmt(figures.eventLoopCpuMsPerRequest, 2),
    figures.dbCpuMsPerRequest === undefined ? '-' : fmt(figures.dbCpuMsPerRequest, 2),
    String(figures.completed),
  ];
}

/** The comparisons table, with `extraRows` (already in its six columns) after the comparisons. */
export function comparisonTable(comparisons: Comparison[], extraRows: string[][] = []): string {
  return table([
    ['comparison', 'measured', 'reference', 'ratio', 'target', 'result'],
    ...comparisons.map((c) => [
      c.name,
      fmt(c.measured, 2),
      fmt(c.reference, 2),
      `${fmt(c.ratio, 2)}x`,
      c.target ?? '-',
      c.met === undefined ? 'info' : c.met ? 'met' : 'MISSED',
    ]),
    ...extraRows,
  ]);
}

/** Logs `title` with the machine's CPUs and Node's version. */
export function logMachine(title: string): void {
  log(`${title}: ${cpus().length} CPU(s) ${cpus()[0]?.model ?? ''}, Node ${process.version}`);
}

/** Answers the 1-minute load average, with a note when the machine is already busy. */
export function noteLoadAverage(): number {
  const [load1] = loadavg();
  if (load1 > 0.5) log(`  Note: the load average is already ${fmt(load1, 2)}; other work on this machine will make the figures noisy.`);
  return load1;
}

/** The machine part of the results. */
export function machine(loadAverageBefore: number): object {
  return {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? '',
    node: process.version,
    platform: process.platform,
    loadAverageBefore,
    loadAverageAfter: loadavg()[0],
  };
}

/** Writes the results as JSON to BENCH_RESULTS_DIR (bench/results by default) and says where. */
export async function writeResults(fileName: string, results: object): Promise<void> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, fileName);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`\nWritten to ${file}`);
}
