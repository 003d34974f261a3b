import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { debianPostgresBin, pgRun } from './helpers/postgres-cluster';
import { runbookBlock, runRunbook } from './helpers/runbook';
import { freePort, request, waitHealthy } from './helpers/server';

const ROOT = join(__dirname, '..');

/** The names the guide's settings block exports: the variables every later block reads. */
function settingNames(): string[] {
  return [...runbookBlock('production-settings').script.matchAll(/^export (\w+)=/gm)].map((m) => m[1]);
}

/** The repository's files as a release checkout has them (tracked and new, not ignored: no node_modules, no dist). */
function copyCheckout(target: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
    .toString()
    .split('\0')
    .filter((f) => f && existsSync(join(ROOT, f)));
  execFileSync('bash', ['-c', `tar -c --null -T - -f - | tar -x -C "${target}"`], { cwd: ROOT, input: files.join('\0') });
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Kills a process group the guide started (`setsid`), by the pid file it wrote. */
async function stopGroup(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!(pid > 0)) return;
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(-pid, 'SIGTERM');
  for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
  if (alive()) process.kill(-pid, 'SIGKILL');
}

/**
 * docs/operations.md, "From an empty machine to production": its blocks, in order, with temporary directories and free
 * ports in the variables the guide defines — the packages (present here: the block installs only what is missing), a
 * primary with WAL archiving, a streaming replica, PgBouncer in transaction mode, the service installed for
 * production, the migrations job and two instances; then both instances answer through PgBouncer, and searches read
 * the replica.
 */
describe('the operations guide: from an empty machine to production', () => {
  let base: string;
  let env: Record<string, string>;
  const primaryUrl = () => `postgres://finapi:${env.FINAPI_DB_PASSWORD}@127.0.0.1:${env.PRIMARY_PORT}/finapi`;
  const replicaUrl = () => `postgres://finapi:${env.FINAPI_DB_PASSWORD}@127.0.0.1:${env.REPLICA_PORT}/finapi`;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'finapi-guide-'));
    await chmod(base, 0o755); // the blocks run as postgres reach PG_ROOT and PGBOUNCER_DIR through it
    const [primary, replica, bouncer, port1, port2] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    env = {
      PGBIN: debianPostgresBin(),
      PG_ROOT: join(base, 'postgresql'),
      PRIMARY_PORT: String(primary),
      REPLICA_PORT: String(replica),
      PGBOUNCER_DIR: join(base, 'pgbouncer'),
      PGBOUNCER_PORT: String(bouncer),
      APP_DIR: join(base, 'finapi'),
      ETC_DIR: join(base, 'etc'),
      DATA_DIR: join(base, 'data'),
      HOST: '127.0.0.1',
      PORT_1: String(port1),
      PORT_2: String(port2),
      FINAPI_DB_PASSWORD: randomBytes(12).toString('hex'),
      REPLICATION_PASSWORD: randomBytes(12).toString('hex'),
      ADMIN_PASSWORD: `admin-${randomBytes(8).toString('hex')}`,
      AUDIT_CHAIN_KEY: randomBytes(32).toString('hex'),
    };
    execFileSync('mkdir', [env.APP_DIR]);
    copyCheckout(env.APP_DIR);
  });

  afterAll(async () => {
    if (!env) return;
    for (const port of [env.PORT_1, env.PORT_2]) await stopGroup(join(env.DATA_DIR, `finapi-${port}.pid`)).catch(() => undefined);
    const bouncerPid = join(env.PGBOUNCER_DIR, 'pgbouncer.pid');
    if (existsSync(bouncerPid)) {
      try {
        process.kill(Number(readFileSync(bouncerPid, 'utf8').trim()), 'SIGTERM');
      } catch {
        // already gone
      }
    }
    for (const cluster of ['replica', 'primary']) {
      if (!existsSync(join(env.PG_ROOT, cluster, 'postmaster.pid'))) continue;
      try {
        pgRun('pg_ctl', ['-D', join(env.PG_ROOT, cluster), '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
    }
    await rm(base, { recursive: true, force: true });
  });

  it('sets, in its first block, exactly the variables this test gives the blocks', () => {
    expect(settingNames().sort()).toEqual(Object.keys(env).sort());
  });

  it(
    'builds the machine block by block, in the guide’s order',
    async () => {
      const blockEnv = { ...env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
      // The settings keep the values they are given: the test's.
      await runRunbook('production-settings', blockEnv);
      await runRunbook('install-packages', blockEnv);
      await runRunbook('primary-cluster', blockEnv, { osUser: 'postgres' });
      await runRunbook('replica-cluster', blockEnv, { osUser: 'postgres' });
      await runRunbook('pgbouncer', blockEnv, { osUser: 'postgres' });
      // `npm ci` replaces node_modules: never let it reach the repository's (a link to the shared one).
      expect(existsSync(join(env.APP_DIR, 'node_modules')) && lstatSync(join(env.APP_DIR, 'node_modules')).isSymbolicLink()).toBe(false);
      await runRunbook('install-service', blockEnv, { timeoutMs: 15 * 60_000 });
      expect(existsSync(join(env.APP_DIR, 'node_modules', 'jest'))).toBe(false); // production packages only
      await runRunbook('configure-service', blockEnv);
      await runRunbook('migrate', blockEnv);
      const started = await runRunbook('start-instances', blockEnv, { timeoutMs: 5 * 60_000 });
      // PgBouncer's pools, as the guide shows them: the database in transaction mode.
      expect(started.stdout).toMatch(/finapi\s*\|\s*finapi\s*\|.*\|\s*transaction/);
    },
    30 * 60_000,
  );

  it('answers on both instances, through PgBouncer, with searches read from the replica', async () => {
    const urls = [env.PORT_1, env.PORT_2].map((port) => `http://127.0.0.1:${port}`);
    for (const url of urls) expect(await waitHealthy(url, undefined, 10_000)).toBe(true);
    const login = await request(urls[0], 'POST', '/api/v1/authorization', {
      body: { login: 'admin@finapi.local', password: env.ADMIN_PASSWORD },
    });
    expect(login.status).toBe(200);
    const token = login.body.authorizationToken.token as string;
    const search = await request(urls[1], 'POST', '/api/v1/transactions/view', { token, body: { pageNumber: 0, pageSize: 20 } });
    expect(search.status).toBe(200);
    const replicaReaders = await query<{ n: number }>(
      replicaUrl(),
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'finapi-read'`,
    );
    expect(replicaReaders[0].n).toBeGreaterThan(0);
    // Each instance's LISTEN connection goes straight to the primary; their pools come through PgBouncer.
    const listeners = await query<{ n: number }>(
      primaryUrl(),
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'finapi-listen'`,
    );
    expect(listeners[0].n).toBe(2);
    const console = `postgres://finapi:${env.FINAPI_DB_PASSWORD}@127.0.0.1:${env.PGBOUNCER_PORT}/pgbouncer`;
    const pools = await query<{ database: string; pool_mode: string }>(console, 'SHOW POOLS');
    expect(pools.find((p) => p.database === 'finapi')?.pool_mode).toBe('transaction');
    const stats = await query<{ database: string; total_xact_count: string }>(console, 'SHOW STATS');
    expect(Number(stats.find((s) => s.database === 'finapi')?.total_xact_count)).toBeGreaterThan(0);
    for (const port of [env.PORT_1, env.PORT_2]) {
      const log = readFileSync(join(env.DATA_DIR, `finapi-${port}.log`), 'utf8');
      expect(log.split('\n').filter((line) => line.startsWith('{"level":50,'))).toEqual([]);
    }
  });
});
