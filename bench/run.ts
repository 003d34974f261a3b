/**
 * `npm run bench`: the service beside a bare Fastify + `pg` baseline (bench/baseline.ts), all on this
 * machine over loopback, on an embedded PostgreSQL in a temporary directory.
 *
 * 1. Authenticated `GET /api/v1/profiles/my` at 64 connections: service vs baseline (target ≥ 0.5×).
 * 2. Logins per second with the right password vs the raw `bcrypt.compare` rate at the same cost,
 *    measured in this process with the libuv threadpool's parallelism (target ≥ 0.9×).
 * 3. p99 of profile reads while logins run at the same time vs the idle p99 (target ≤ 3×).
 *
 * The service and the baseline each run in their own process so the load generator (autocannon,
 * in this process) shares no event loop with them. Both get the same pool size (DB_POOL_SIZE).
 * The baseline runs the service's SQL (one query per profile read); it is also run with the three
 * queries the service ran before that query was widened, for information. Beside the rates, the
 * server process's CPU time per request is shown: on a machine shared with other work it moves far
 * less than the rates do.
 * The figures are printed as a table and written to bench/results/latest.json. The process exits
 * non-zero only when the benchmark itself fails; a missed target is printed as MISSED.
 */
import autocannon from 'autocannon';
import { compare, hash } from 'bcrypt';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedServer, freePort, startEmbeddedPostgres } from '../src/database/embedded-postgres';

const SERVICE_MAIN = join(__dirname, '..', 'src', 'main.js');
const BASELINE_MAIN = join(__dirname, 'baseline.js');
/** The repository root (or the build's parent): the service finds its browser pages from there. */
const ROOT = join(__dirname, '..', '..');
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? join(ROOT, 'bench', 'results');

const num = (name: string, fallback: number): number => Number(process.env[name] ?? '') || fallback;
const SETTINGS = {
  connections: 64,
  durationSeconds: num('BENCH_DURATION', 10),
  warmupSeconds: num('BENCH_WARMUP', 2),
  loginConnections: num('BENCH_LOGIN_CONNECTIONS', 8),
  bcryptCost: 12,
  bcryptParallelism: num('UV_THREADPOOL_SIZE', 4),
  dbPoolSize: num('DB_POOL_SIZE', 20),
  users: 8,
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
};
const ADMIN_PASSWORD = `bench-admin-${randomBytes(6).toString('hex')}`;

interface Load {
  requestsPerSecond: number;
  completed: number;
  non2xx: number;
  errors: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; average: number };
  durationSeconds: number;
  /** CPU time the server process spent per answered request (Linux only): steadier than rates on a busy machine. */
  serverCpuMsPerRequest?: number;
}

interface Comparison {
  name: string;
  measured: number;
  reference: number;
  ratio: number;
  /** Absent on the figures shown for information only. */
  target?: string;
  met?: boolean;
}

interface BenchUser {
  login: string;
  password: string;
  token: string;
}

// ── processes ────────────────────────────────────────────────────────────────────────────────

const children = new Set<ChildProcess>();
let database: EmbeddedServer | undefined;
let workDir: string | undefined;

interface Child {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** User + system CPU seconds a process has used so far, from /proc (undefined elsewhere). */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime in USER_HZ (100 on Linux)
  } catch {
    return undefined;
  }
}

/** Starts `node <script>` and resolves once it prints `ready`; its output is kept for errors. */
function startChild(name: string, script: string, env: Record<string, string>, ready: RegExp): Promise<Child> {
  return new Promise((resolveChild, reject) => {
    const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    let started = false;
    const timer = setTimeout(() => fail(new Error(`${name} did not start within 90 s`)), 90_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n--- ${name} output ---\n${output.slice(-4000)}`));
    };
    const onData = (chunk: Buffer): void => {
      if (output.length < 100_000) output += chunk.toString('utf8');
      if (!started && ready.test(output)) {
        started = true;
        clearTimeout(timer);
        resolveChild({ url: `http://127.0.0.1:${env.PORT}`, pid: child.pid ?? 0, stop: () => stopChild(child) });
      }
    };
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

async function cleanUp(): Promise<void> {
  await Promise.all([...children].map(stopChild));
  await database?.stop().catch(() => undefined);
  database = undefined;
  if (workDir) await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
  workDir = undefined;
}

async function startService(databaseUrl: string): Promise<Child> {
  const port = await freePort();
  return startChild(
    'service',
    SERVICE_MAIN,
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD,
      BCRYPT_COST: String(SETTINGS.bcryptCost),
      LOG_LEVEL: SETTINGS.logLevel,
      DB_POOL_SIZE: String(SETTINGS.dbPoolSize),
      TOKEN_TTL_SECONDS: '7200',
    },
    /finapi listening on/,
  );
}

/** `joined`: the service's one query per profile read; `separate`: the three it ran before (see baseline.ts). */
async function startBaseline(databaseUrl: string, profileSql: 'joined' | 'separate'): Promise<Child> {
  const port = await freePort();
  return startChild(
    'baseline',
    BASELINE_MAIN,
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DB_POOL_SIZE: String(SETTINGS.dbPoolSize),
      BASELINE_PROFILE_SQL: profileSql,
    },
    /baseline .*listening on/,
  );
}

// ── HTTP set-up through the admin API ───────────────────────────────────────────────────────

async function api(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

async function login(baseUrl: string, loginName: string, password: string): Promise<string> {
  const answer = await api(baseUrl, 'POST', '/api/v1/authorization', { login: loginName, password });
  return answer.authorizationToken.token as string;
}

/** Creates the bench users through the admin API and logs each in once. */
async function createUsers(baseUrl: string): Promise<BenchUser[]> {
  const admin = await login(baseUrl, 'admin', ADMIN_PASSWORD);
  return Promise.all(
    Array.from({ length: SETTINGS.users }, async (_, i) => {
      const user = { login: `bench-${i}-${randomBytes(3).toString('hex')}`, password: `bench-pw-${randomBytes(8).toString('hex')}` };
      await api(baseUrl, 'POST', '/api/v1/users', { ...user, name: `Bench user ${i}`, role: 'individual' }, admin);
      return { ...user, token: await login(baseUrl, user.login, user.password) };
    }),
  );
}

// ── load ─────────────────────────────────────────────────────────────────────────────────────

function rotating(specs: autocannon.RawRequest[]): autocannon.RequestSpec[] {
  let next = 0;
  return [{ setupRequest: (request) => ({ ...request, ...specs[next++ % specs.length] }) }];
}

function profileLoad(baseUrl: string, users: BenchUser[], seconds: number): autocannon.Instance {
  return autocannon({
    url: baseUrl,
    connections: SETTINGS.connections,
    duration: seconds,
    timeout: 30,
    requests: rotating(users.map((u) => ({ method: 'GET', path: '/api/v1/profiles/my', headers: { authorization: `Bearer ${u.token}` } }))),
  });
}

function loginLoad(baseUrl: string, users: BenchUser[], seconds: number): autocannon.Instance {
  return autocannon({
    url: baseUrl,
    connections: SETTINGS.loginConnections,
    duration: seconds,
    timeout: 30,
    requests: rotating(
      users.map((u) => ({
        method: 'POST',
        path: '/api/v1/authorization',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: u.login, password: u.password }),
      })),
    ),
  });
}

/** Runs a load and summarises it, with the server's CPU time per request when `server` is given. */
async function measure(name: string, load: autocannon.Instance, server?: Child): Promise<Load> {
  const before = server && cpuSeconds(server.pid);
  const result = summarise(name, await load);
  const after = server && cpuSeconds(server.pid);
  if (before !== undefined && after !== undefined) result.serverCpuMsPerRequest = ((after - before) * 1000) / result.completed;
  return result;
}

function summarise(name: string, result: autocannon.Result): Load {
  const completed = result['2xx'];
  const load: Load = {
    requestsPerSecond: completed / result.duration,
    completed,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      average: result.latency.average,
    },
    durationSeconds: result.duration,
  };
  const failed = load.non2xx + load.errors;
  if (completed === 0 || failed > 0.01 * (completed + failed)) {
    throw new Error(
      `${name}: ${completed} answers 2xx, ${load.non2xx} other answers, ${load.errors} errors — the figures would mean nothing`,
    );
  }
  log(`  ${name}: ${fmt(load.requestsPerSecond)} req/s, p50 ${load.latencyMs.p50} ms, p99 ${load.latencyMs.p99} ms`);
  return load;
}

async function measureProfiles(name: string, server: Child, users: BenchUser[]): Promise<Load> {
  await profileLoad(server.url, users, SETTINGS.warmupSeconds);
  return measure(name, profileLoad(server.url, users, SETTINGS.durationSeconds), server);
}

/** The raw rate of `bcrypt.compare` at the bench cost, with the threadpool's parallelism, in this process. */
async function measureBcrypt(
  seconds: number,
): Promise<{ comparesPerSecond: number; compares: number; parallelism: number; cpuMsPerCompare: number }> {
  const password = `bench-pw-${randomBytes(8).toString('hex')}`;
  const passwordHash = await hash(password, SETTINGS.bcryptCost);
  await compare(password, passwordHash);
  let compares = 0;
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: SETTINGS.bcryptParallelism }, async () => {
      while (Date.now() < deadline) {
        if (!(await compare(password, passwordHash))) throw new Error('bcrypt.compare refused the right password');
        compares++;
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const result = {
    comparesPerSecond: compares / elapsed,
    compares,
    parallelism: SETTINGS.bcryptParallelism,
    cpuMsPerCompare: (cpu.user + cpu.system) / 1000 / compares,
  };
  log(
    `  raw bcrypt.compare (cost ${SETTINGS.bcryptCost}, ${result.parallelism} in parallel, in this process): ${fmt(result.comparesPerSecond)}/s`,
  );
  return result;
}

// ── report ───────────────────────────────────────────────────────────────────────────────────

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function fmt(value: number, digits = 1): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function compareAtLeast(name: string, measured: number, reference: number, factor: number): Comparison {
  const ratio = measured / reference;
  return { name, measured, reference, ratio, target: `>= ${factor}x`, met: ratio >= factor };
}

function ratioOf(name: string, measured: number, reference: number): Comparison {
  return { name, measured, reference, ratio: measured / reference };
}

function compareAtMost(name: string, measured: number, reference: number, factor: number): Comparison {
  const ratio = measured / reference;
  return { name, measured, reference, ratio, target: `<= ${factor}x`, met: ratio <= factor };
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]): string =>
    `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const startedAt = new Date();
  log(`finapi bench: ${cpus().length} CPU(s) ${cpus()[0]?.model ?? ''}, Node ${process.version}`);
  log(
    `  profile reads at ${SETTINGS.connections} connections for ${SETTINGS.durationSeconds} s (after ${SETTINGS.warmupSeconds} s of warm-up),` +
      ` logins at ${SETTINGS.loginConnections} connections, bcrypt cost ${SETTINGS.bcryptCost}, DB_POOL_SIZE ${SETTINGS.dbPoolSize}`,
  );

  const [load1] = loadavg();
  if (load1 > 0.5) log(`  Note: the load average is already ${fmt(load1, 2)}; other work on this machine will make the figures noisy.`);

  workDir = await mkdtemp(join(tmpdir(), 'finapi-bench-'));
  await chmod(workDir, 0o755); // as root the server runs as an unprivileged user that must reach its data
  log('Starting PostgreSQL…');
  database = await startEmbeddedPostgres(join(workDir, 'data'));
  const databaseUrl = (name: string): string => {
    const url = new URL(database?.url ?? '');
    url.pathname = `/${name}`;
    return url.toString();
  };
  const admin = new Client({ connectionString: database.url });
  await admin.connect();
  await admin.query('CREATE DATABASE bench_baseline');
  await admin.query('CREATE DATABASE bench_service');
  await admin.end();

  // The baseline's database: the service migrates it and creates the same users, then stops.
  log('Preparing the baseline database (the service migrates it and creates the bench users)…');
  let service = await startService(databaseUrl('bench_baseline'));
  const baselineUsers = await createUsers(service.url);
  await service.stop();

  log('Baseline (Fastify + pg), the same SQL as the service (one query per profile read):');
  let baseline = await startBaseline(databaseUrl('bench_baseline'), 'joined');
  const baselineProfile = await measureProfiles('GET /profiles/my', baseline, baselineUsers);
  const baselineLogin = await measure('POST /authorization', loginLoad(baseline.url, baselineUsers, SETTINGS.durationSeconds), baseline);
  await baseline.stop();
  log('Baseline (Fastify + pg), three queries per profile read (token lookup, then user and membership):');
  baseline = await startBaseline(databaseUrl('bench_baseline'), 'separate');
  const baselineProfileSeparate = await measureProfiles('GET /profiles/my', baseline, baselineUsers);
  await baseline.stop();

  log('Service:');
  service = await startService(databaseUrl('bench_service'));
  const serviceUsers = await createUsers(service.url);
  const serviceProfile = await measureProfiles('GET /profiles/my', service, serviceUsers);
  // The raw rate is taken just before and just after the logins (the service idle), and averaged,
  // so a change in what else the machine runs weighs on both sides alike.
  const bcryptSeconds = Math.max(4, SETTINGS.durationSeconds - 4);
  const bcryptBefore = await measureBcrypt(bcryptSeconds);
  const serviceLogin = await measure('POST /authorization', loginLoad(service.url, serviceUsers, SETTINGS.durationSeconds), service);
  const bcryptAfter = await measureBcrypt(bcryptSeconds);
  const bcrypt = {
    comparesPerSecond: (bcryptBefore.comparesPerSecond + bcryptAfter.comparesPerSecond) / 2,
    compares: bcryptBefore.compares + bcryptAfter.compares,
    parallelism: SETTINGS.bcryptParallelism,
    cpuMsPerCompare: (bcryptBefore.cpuMsPerCompare + bcryptAfter.cpuMsPerCompare) / 2,
    before: bcryptBefore,
    after: bcryptAfter,
  };
  log('Service, profile reads while logins run:');
  const [mixedProfileResult, mixedLoginResult] = await Promise.all([
    profileLoad(service.url, serviceUsers, SETTINGS.durationSeconds),
    loginLoad(service.url, serviceUsers, SETTINGS.durationSeconds),
  ]);
  const mixedProfile = summarise('GET /profiles/my', mixedProfileResult);
  const mixedLogin = summarise('POST /authorization', mixedLoginResult);
  await service.stop();

  const comparisons = [
    compareAtLeast('profile reads/s, service vs baseline', serviceProfile.requestsPerSecond, baselineProfile.requestsPerSecond, 0.5),
    compareAtLeast('logins/s vs raw bcrypt.compare/s', serviceLogin.requestsPerSecond, bcrypt.comparesPerSecond, 0.9),
    compareAtMost('profile p99 under logins vs idle p99 (ms)', mixedProfile.latencyMs.p99, serviceProfile.latencyMs.p99, 3),
    ratioOf('profile reads/s, service vs 3-query baseline', serviceProfile.requestsPerSecond, baselineProfileSeparate.requestsPerSecond),
  ];
  // Rates move with whatever else the machine runs; CPU time per request does much less.
  const cpu = (load: Load): number => load.serverCpuMsPerRequest ?? Number.NaN;
  if (!Number.isNaN(cpu(serviceProfile) + cpu(baselineProfile) + cpu(serviceLogin))) {
    comparisons.push(
      ratioOf('profile read CPU ms, baseline / service', cpu(baselineProfile), cpu(serviceProfile)),
      ratioOf('CPU ms, raw bcrypt.compare / service login', bcrypt.cpuMsPerCompare, cpu(serviceLogin)),
    );
  }

  const loadRow = (name: string, load: Load): string[] => [
    name,
    fmt(load.requestsPerSecond),
    fmt(load.latencyMs.p50, 2),
    fmt(load.latencyMs.p99, 2),
    load.serverCpuMsPerRequest === undefined ? '-' : fmt(load.serverCpuMsPerRequest, 2),
    String(load.completed),
  ];
  log('');
  log(
    table([
      ['run', 'req/s', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'requests'],
      loadRow(`baseline GET /profiles/my (${SETTINGS.connections} conn)`, baselineProfile),
      loadRow(`baseline GET /profiles/my, 3 queries (${SETTINGS.connections} conn)`, baselineProfileSeparate),
      loadRow(`service  GET /profiles/my (${SETTINGS.connections} conn)`, serviceProfile),
      loadRow(`baseline POST /authorization (${SETTINGS.loginConnections} conn)`, baselineLogin),
      loadRow(`service  POST /authorization (${SETTINGS.loginConnections} conn)`, serviceLogin),
      loadRow('service  GET /profiles/my while logins run', mixedProfile),
      loadRow('service  POST /authorization while reads run', mixedLogin),
      [
        `raw bcrypt.compare, cost ${SETTINGS.bcryptCost}, ${bcrypt.parallelism} parallel`,
        fmt(bcrypt.comparesPerSecond),
        '-',
        '-',
        fmt(bcrypt.cpuMsPerCompare, 2),
        String(bcrypt.compares),
      ],
    ]),
  );
  log('');
  log(
    table([
      ['comparison', 'measured', 'reference', 'ratio', 'target', 'result'],
      ...comparisons.map((c) => [
        c.name,
        fmt(c.measured, 2),
        fmt(c.reference, 2),
        `${fmt(c.ratio, 2)}x`,
        c.target ?? '-',
        c.met === undefined ? 'info' : c.met ? 'met' : 'MISSED',
      ]),
    ]),
  );

  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? '',
      node: process.version,
      platform: process.platform,
      loadAverageBefore: load1,
      loadAverageAfter: loadavg()[0],
    },
    settings: SETTINGS,
    baseline: { profile: baselineProfile, profileThreeQueries: baselineProfileSeparate, login: baselineLogin },
    bcrypt,
    service: { profile: serviceProfile, login: serviceLogin, profileWhileLogins: mixedProfile, loginWhileReads: mixedLogin },
    comparisons,
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, 'latest.json');
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`\nWritten to ${file}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

main()
  .then(cleanUp)
  .catch(async (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await cleanUp();
    process.exit(1);
  });
