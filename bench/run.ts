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
import { randomBytes } from 'node:crypto';
import {
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  Child,
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
  startService,
  summarise,
  table,
  writeResults,
} from './common';

const SETTINGS = {
  connections: 64,
  durationSeconds: num('BENCH_DURATION', 10),
  warmupSeconds: num('BENCH_WARMUP', 2),
  loginConnections: num('BENCH_LOGIN_CONNECTIONS', 8),
  bcryptCost: 12,
  bcryptParallelism: num('UV_THREADPOOL_SIZE', 4),
  dbPoolSize: num('DB_POOL_SIZE', 10),
  users: 8,
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
};
/** Reads and logins fail the run past this share of failed answers. */
const STRICT = { maxFailedShare: 0.01 };

interface BenchUser {
  login: string;
  password: string;
  token: string;
}

// ── processes ────────────────────────────────────────────────────────────────────────────────

/** `joined`: the service's one query per profile read; `separate`: the three it ran before (see baseline.ts). */
function startProfileBaseline(databaseUrl: string, profileSql: 'joined' | 'separate'): Promise<Child> {
  return startBaseline('baseline.js', /baseline .*listening on/, databaseUrl, SETTINGS.dbPoolSize, { BASELINE_PROFILE_SQL: profileSql });
}

// ── HTTP set-up through the admin API ───────────────────────────────────────────────────────

/** Creates the bench users through the admin API and logs each in once. */
async function createUsers(baseUrl: string): Promise<BenchUser[]> {
  const admin = await login(baseUrl, ADMIN_LOGIN, ADMIN_PASSWORD);
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
  return startLoad(baseUrl, SETTINGS.connections, seconds, {
    requests: rotating(users.map((u) => ({ method: 'GET', path: '/api/v1/profiles/my', headers: { authorization: `Bearer ${u.token}` } }))),
  });
}

function loginLoad(baseUrl: string, users: BenchUser[], seconds: number): autocannon.Instance {
  return startLoad(baseUrl, SETTINGS.loginConnections, seconds, {
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

async function measureProfiles(name: string, server: Child, users: BenchUser[]): Promise<Load> {
  await profileLoad(server.url, users, SETTINGS.warmupSeconds);
  return measure(name, profileLoad(server.url, users, SETTINGS.durationSeconds), server, STRICT);
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

// ── main ─────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const startedAt = new Date();
  logMachine('finapi bench');
  log(
    `  profile reads at ${SETTINGS.connections} connections for ${SETTINGS.durationSeconds} s (after ${SETTINGS.warmupSeconds} s of warm-up),` +
      ` logins at ${SETTINGS.loginConnections} connections, bcrypt cost ${SETTINGS.bcryptCost}, DB_POOL_SIZE ${SETTINGS.dbPoolSize}`,
  );

  const load1 = noteLoadAverage();

  const databaseUrl = await startDatabase('finapi-bench-', ['bench_baseline', 'bench_service']);

  // The baseline's database: the service migrates it and creates the same users, then stops.
  log('Preparing the baseline database (the service migrates it and creates the bench users)…');
  let service = await startService(databaseUrl('bench_baseline'), SETTINGS);
  const baselineUsers = await createUsers(service.url);
  await service.stop();

  log('Baseline (Fastify + pg), the same SQL as the service (one query per profile read):');
  let baseline = await startProfileBaseline(databaseUrl('bench_baseline'), 'joined');
  const baselineProfile = await measureProfiles('GET /profiles/my', baseline, baselineUsers);
  const baselineLogin = await measure(
    'POST /authorization',
    loginLoad(baseline.url, baselineUsers, SETTINGS.durationSeconds),
    baseline,
    STRICT,
  );
  await baseline.stop();
  log('Baseline (Fastify + pg), three queries per profile read (token lookup, then user and membership):');
  baseline = await startProfileBaseline(databaseUrl('bench_baseline'), 'separate');
  const baselineProfileSeparate = await measureProfiles('GET /profiles/my', baseline, baselineUsers);
  await baseline.stop();

  log('Service:');
  service = await startService(databaseUrl('bench_service'), SETTINGS);
  const serviceUsers = await createUsers(service.url);
  const serviceProfile = await measureProfiles('GET /profiles/my', service, serviceUsers);
  // The raw rate is taken just before and just after the logins (the service idle), and averaged,
  // so a change in what else the machine runs weighs on both sides alike.
  const bcryptSeconds = Math.max(4, SETTINGS.durationSeconds - 4);
  const bcryptBefore = await measureBcrypt(bcryptSeconds);
  const serviceLogin = await measure(
    'POST /authorization',
    loginLoad(service.url, serviceUsers, SETTINGS.durationSeconds),
    service,
    STRICT,
  );
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
  const mixedProfile = summarise('GET /profiles/my', mixedProfileResult, STRICT);
  const mixedLogin = summarise('POST /authorization', mixedLoginResult, STRICT);
  await service.stop();

  const comparisons = [
    compareAtLeast('profile reads/s, service vs baseline', serviceProfile.requestsPerSecond, baselineProfile.requestsPerSecond, 0.5),
    compareAtLeast('logins/s vs raw bcrypt.compare/s', serviceLogin.requestsPerSecond, bcrypt.comparesPerSecond, 0.9),
    compareAtMost('profile p99 under logins vs idle p99 (ms)', mixedProfile.latencyMs.p99, serviceProfile.latencyMs.p99, 3),
    ratioOf('profile reads/s, service vs 3-query baseline', serviceProfile.requestsPerSecond, baselineProfileSeparate.requestsPerSecond),
  ];
  // Rates move with whatever else the machine runs; CPU time per request does much less.
  if (!Number.isNaN(cpuMs(serviceProfile) + cpuMs(baselineProfile) + cpuMs(serviceLogin))) {
    comparisons.push(
      ratioOf('profile read CPU ms, baseline / service', cpuMs(baselineProfile), cpuMs(serviceProfile)),
      ratioOf('CPU ms, raw bcrypt.compare / service login', bcrypt.cpuMsPerCompare, cpuMs(serviceLogin)),
    );
  }

  log('');
  log(
    table([
      RUN_COLUMNS,
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
        '-',
        '-',
        String(bcrypt.compares),
      ],
    ]),
  );
  log('');
  log(comparisonTable(comparisons));

  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: machine(load1),
    settings: SETTINGS,
    baseline: { profile: baselineProfile, profileThreeQueries: baselineProfileSeparate, login: baselineLogin },
    bcrypt,
    service: { profile: serviceProfile, login: serviceLogin, profileWhileLogins: mixedProfile, loginWhileReads: mixedLogin },
    comparisons,
  };
  await writeResults('latest.json', results);
}

runBench('bench', main);
