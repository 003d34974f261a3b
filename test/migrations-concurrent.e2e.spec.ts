import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { runRunbook } from './helpers/runbook';
import { createDatabase, freePort, serviceEnv, waitHealthy } from './helpers/server';

const DIST = process.env.FINAPI_DIST ?? join(__dirname, '..', 'dist');
const MAIN = join(DIST, 'finapi.js');
/** The installation the built service belongs to: where the guide's commands run (`npm run …`, `dist/ormconfig.js`). */
const INSTALL = join(DIST, '..');
const MIGRATIONS = readdirSync(join(DIST, 'migrations')).filter((f) => /^\d+-\w+\.js$/.test(f)).length;
const FIRST = 'Foundation1763800000000';
/** The lock's key, as the guide gives it to operators. */
const LOCK_KEY = /advisory lock \(session level, key `(\d+)`/.exec(
  readFileSync(join(__dirname, '..', 'docs', 'operations.md'), 'utf8'),
)![1];

/** A database with nothing in it (not the migrated template), named so that the run's teardown drops it. */
async function emptyDatabase(): Promise<string> {
  const admin = process.env.TEST_DATABASE_URL!;
  const name = `t_${process.env.FINAPI_TEST_RUN}_empty_${randomBytes(4).toString('hex')}`;
  await withClient(admin, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function migrationsIn(url: string): Promise<{ name: string; n: number }[]> {
  return withClient(url, async (c) => (await c.query(`SELECT name, count(*)::int AS n FROM migrations GROUP BY name ORDER BY name`)).rows);
}

interface Instance {
  child: ChildProcess;
  /** The API's base (`…/api/v1`), which waitHealthy polls the health route under. */
  url: string;
  /** Every non-empty line it wrote, stdout and stderr. */
  lines: string[];
  exited: Promise<number | null>;
}

const running: Instance[] = [];

function launch(databaseUrl: string, port: number, env: Record<string, string> = {}): Instance {
  const child = spawn(process.execPath, [MAIN], {
    env: serviceEnv(port, { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', DB_POOL_SIZE: '4', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffered = '';
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts.filter((l) => l.trim() !== ''));
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      if (buffered.trim() !== '') lines.push(buffered);
      resolve(code);
    }),
  );
  const instance = { child, url: `http://127.0.0.1:${port}`, lines, exited };
  running.push(instance);
  return instance;
}

/** Starts the service expecting it to refuse: its exit code and what its lines say (each a JSON line's `msg`; within 90 s). */
async function startRefused(
  databaseUrl: string,
  env: Record<string, string>,
): Promise<{ code: number | null | 'still running'; lines: string[] }> {
  const instance = launch(databaseUrl, await freePort(), env);
  const code = await Promise.race([instance.exited, new Promise<'still running'>((r) => setTimeout(r, 90_000, 'still running'))]);
  const said = (line: string): string => {
    try {
      return (JSON.parse(line) as { msg?: string }).msg ?? line;
    } catch {
      return line;
    }
  };
  return { code, lines: instance.lines.map(said) };
}

/**
 * Whether a session of `url`'s database comes to wait for the migration lock (an advisory lock wait in
 * pg_stat_activity) before `done()` says the run is over, within `ms`.
 */
async function waitsForLock(url: string, done: () => boolean, ms = 90_000): Promise<boolean> {
  const database = new URL(url).pathname.slice(1);
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !done()) {
    const { rows } = await withClient(process.env.TEST_DATABASE_URL!, (c) =>
      c.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND wait_event = 'advisory'`, [database]),
    );
    if (rows.length) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

const faults = (lines: string[]) => lines.filter((l) => l.startsWith('{"level":50,'));

afterEach(async () => {
  for (const instance of running.splice(0)) {
    if (instance.child.exitCode !== null || instance.child.signalCode !== null) continue;
    instance.child.kill('SIGTERM');
    const code = await Promise.race([instance.exited, new Promise((r) => setTimeout(r, 10_000, 'still running'))]);
    if (code === 'still running') instance.child.kill('SIGKILL');
  }
});

describe('migrations shared by several instances (issue 33, item 3)', () => {
  it('three instances started at once on an empty database: all healthy, each migration applied once, no error logged', async () => {
    const db = await emptyDatabase();
    const ports = [await freePort(), await freePort(), await freePort()];
    // Spawned in the same tick: without a lock they race on the same CREATE statements.
    const instances = ports.map((port) => launch(db, port));
    const healthy = await Promise.all(instances.map((i) => waitHealthy(i.url, i.child, 150_000)));
    const lines = instances.flatMap((i) => i.lines);
    expect({ healthy, lines }).toEqual({ healthy: [true, true, true], lines });
    expect(faults(lines)).toEqual([]);
    // What the race looked like: a duplicate pg_type row, a relation created twice, TypeORM's retries.
    expect(lines.filter((l) => /duplicate key|(relation|type) .{0,80} already exists|Retrying/i.test(l))).toEqual([]);

    const recorded = await migrationsIn(db);
    expect(recorded).toHaveLength(MIGRATIONS);
    expect(recorded.filter((m) => m.n !== 1)).toEqual([]);
    // What each instance applied, from its info line: together, every migration once.
    const applied = lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { context?: string; migrations?: string[] })
      .filter((entry) => entry.context === 'Migrations' && Array.isArray(entry.migrations))
      .flatMap((entry) => entry.migrations!);
    expect(applied.sort()).toEqual(recorded.map((m) => m.name).sort());
  }, 200_000);

  it('a start waits while another session holds the migration lock, then starts', async () => {
    const db = await createDatabase();
    const holder = new Client({ connectionString: db });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [LOCK_KEY]);
      const instance = launch(db, await freePort());
      let started = false;
      void waitHealthy(instance.url, instance.child, 90_000).then((healthy) => (started = healthy));
      expect(await waitsForLock(db, () => started || instance.child.exitCode !== null)).toBe(true);
      // Held: the instance waits (saying so), neither starting nor failing.
      await new Promise((r) => setTimeout(r, 1000));
      expect(await waitHealthy(instance.url, instance.child, 500)).toBe(false);
      expect(instance.child.exitCode).toBeNull();
      expect(instance.lines.filter((l) => l.includes('Waiting for the migration lock'))).toHaveLength(1);
      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [LOCK_KEY]);
      expect(await waitHealthy(instance.url, instance.child, 90_000)).toBe(true);
      expect(faults(instance.lines)).toEqual([]);
    } finally {
      await holder.end();
    }
  }, 150_000);

  it("MIGRATIONS_RUN=false: an instance on an unmigrated database refuses in one line; after the job (the guide's commands, a revert too) instances start", async () => {
    const db = await emptyDatabase();
    const refused = await startRefused(db, { MIGRATIONS_RUN: 'false', LOG_LEVEL: 'warn' });
    expect(refused).toEqual({ code: 1, lines: [expect.stringContaining('MIGRATIONS_RUN=false')] });
    expect(refused.lines[0]).toContain(`${MIGRATIONS} migration(s) (${FIRST}, `);
    expect(refused.lines[0]).toContain('npm run migration:run');
    // It changed nothing: not even the migrations table.
    const tables = await withClient(db, async (c) => (await c.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).rows);
    expect(tables).toEqual([]);

    const job = await runRunbook('migrations-job', { DATABASE_URL: db }, { cwd: INSTALL, timeoutMs: 150_000 });
    expect(job.stdout).toMatch(new RegExp(`\\[X\\] \\d+ ${FIRST}`));
    expect(job.stdout).not.toContain('[ ]');
    const recorded = await migrationsIn(db);
    expect(recorded).toHaveLength(MIGRATIONS);
    expect(recorded.filter((m) => m.n !== 1)).toEqual([]);
    // A rollback undoes the newest; the job applies it again.
    await runRunbook('migrations-revert', { DATABASE_URL: db }, { cwd: INSTALL, timeoutMs: 150_000 });
    expect(await migrationsIn(db)).toHaveLength(MIGRATIONS - 1);
    await runRunbook('migrations-job', { DATABASE_URL: db }, { cwd: INSTALL, timeoutMs: 150_000 });
    expect(await migrationsIn(db)).toEqual(recorded);

    const instances = [
      launch(db, await freePort(), { MIGRATIONS_RUN: 'false' }),
      launch(db, await freePort(), { MIGRATIONS_RUN: 'false' }),
    ];
    const healthy = await Promise.all(instances.map((i) => waitHealthy(i.url, i.child, 90_000)));
    const lines = instances.flatMap((i) => i.lines);
    expect({ healthy, lines }).toEqual({ healthy: [true, true], lines });
    expect(faults(lines)).toEqual([]);
  }, 300_000);

  it('a failing migration stops the start at once with one line naming it (no retries)', async () => {
    const db = await createDatabase();
    // The first migration looks pending again while its tables exist: running it fails.
    await withClient(db, (c) => c.query(`DELETE FROM migrations WHERE name = $1`, [FIRST]));
    const refused = await startRefused(db, { LOG_LEVEL: 'warn' });
    expect(refused).toEqual({
      code: 1,
      lines: [expect.stringMatching(new RegExp(`Migration ${FIRST} failed: relation "organizations" already exists`))],
    });
  }, 150_000);

  it("the TypeORM CLI on dist/ormconfig.js (the guide's commands): show, revert, run, holding the same lock", async () => {
    const db = await createDatabase();
    const holder = new Client({ connectionString: db });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [LOCK_KEY]);
      let settled = false;
      const cli = runRunbook('migrations-typeorm-cli', { DATABASE_URL: db }, { cwd: INSTALL, timeoutMs: 150_000 });
      cli.then(
        () => (settled = true),
        () => (settled = true),
      );
      expect(await waitsForLock(db, () => settled)).toBe(true);
      expect(settled).toBe(false);
      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [LOCK_KEY]);
      const { stdout } = await cli;
      expect(stdout).toContain('Waiting for the migration lock');
      expect(stdout).toMatch(new RegExp(`\\[X\\] \\d+ ${FIRST}`));
      expect(stdout).toMatch(/Migration \w+ has been reverted successfully/);
      expect(stdout).toMatch(/Migration \w+ has been executed successfully/);
    } finally {
      await holder.end();
    }
    const recorded = await migrationsIn(db);
    expect(recorded).toHaveLength(MIGRATIONS);
    expect(recorded.filter((m) => m.n !== 1)).toEqual([]);
  }, 200_000);
});
