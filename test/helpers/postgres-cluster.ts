import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './server';

/**
 * Operations tests (replicas, backups, PgBouncer) run a PostgreSQL of the operating system's: Debian's `postgresql`
 * package, whose pg_dump, pg_basebackup and replication the embedded server does not ship. `.ci/run` installs it (and
 * `pgbouncer`) when missing. Run as root, every server runs as the OS user `postgres` the package creates.
 */
export function debianPostgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error(`No PostgreSQL server under ${base}: install Debian's postgresql package (.ci/run does)`);
  return join(base, versions[0], 'bin');
}

const asRoot = process.getuid?.() === 0;

/** Runs one of PostgreSQL's programs (as `postgres` when we are root); throws with its output when it fails. */
export function pgRun(program: string, args: string[], options: { env?: Record<string, string> } = {}): string {
  const bin = join(debianPostgresBin(), program);
  const command = asRoot ? 'runuser' : bin;
  const argv = asRoot ? ['-u', 'postgres', '--', bin, ...args] : args;
  const run = spawnSync(command, argv, { encoding: 'utf8', env: { ...process.env, ...options.env }, cwd: tmpdir() });
  if (run.status !== 0) throw new Error(`${program} ${args.join(' ')} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** A directory the server's user may own: 0755 temp dir, handed to `postgres` when we are root. */
export async function serverDirectory(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o755);
  if (asRoot) await chown(dir, ...postgresIds());
  return dir;
}

function postgresIds(): [number, number] {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return [id('-u'), id('-g')];
}

export interface Cluster {
  port: number;
  /** Its data directory, inside `dir`. */
  dataDir: string;
  dir: string;
  /** `postgres://finapi:finapi@127.0.0.1:<port>/<database>` (the superuser `finapi`). */
  url(database?: string): string;
  /** WAL segments the primary archived (`archive: true`), for point-in-time recovery. */
  archiveDir: string;
  createDatabase(name: string): Promise<string>;
  query<T = any>(sql: string, database?: string): Promise<T[]>;
  /** Stops the server at once, as a crash does (`pg_ctl stop -m immediate`: no checkpoint, connections cut); its data stays. */
  crash(): void;
  /** Starts it again after `crash()` (recovering from its WAL), waiting until it takes connections. */
  start(): void;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Start as a streaming replica of this primary (pg_basebackup -R): read-only, following it. */
  replicaOf?: Cluster;
  /** Archive WAL to `archiveDir` (archive_mode=on), as a point-in-time recovery setup does. */
  archive?: boolean;
  /** More postgresql.conf lines. */
  settings?: string[];
}

/**
 * A PostgreSQL server in a temporary directory on a free loopback port: a primary ready for replicas (wal_level
 * replica, replication allowed from loopback), or a streaming replica of one. The superuser is `finapi` (password
 * `finapi`); authentication is trust on loopback, as nothing else reaches these servers.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const dir = await serverDirectory('finapi-pg-');
  const dataDir = join(dir, 'data');
  const archiveDir = join(dir, 'archive');
  const port = await freePort();
  if (options.replicaOf) {
    const primary = options.replicaOf;
    pgRun('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'finapi',
      '-D',
      dataDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
  } else {
    pgRun('initdb', ['-D', dataDir, '-U', 'finapi', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  }
  if (options.archive) {
    await mkdir(archiveDir);
    if (asRoot) await chown(archiveDir, ...postgresIds());
  }
  const conf = [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    'max_connections = 200',
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = on',
    'wal_level = replica',
    'max_wal_senders = 10',
    'hot_standby = on',
    ...(options.archive ? ['archive_mode = on', `archive_command = 'test ! -f ${archiveDir}/%f && cp %p ${archiveDir}/%f'`] : []),
    ...(options.settings ?? []),
  ];
  await appendFile(join(dataDir, 'postgresql.conf'), `\n# finapi tests\n${conf.join('\n')}\n`);
  if (!options.replicaOf) await appendFile(join(dataDir, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\n');
  pgRun('pg_ctl', ['-D', dataDir, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  const url = (database = 'postgres') => `postgres://finapi:finapi@127.0.0.1:${port}/${database}`;
  const query = async <T>(sql: string, database?: string): Promise<T[]> => {
    const client = new Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  };
  return {
    port,
    dataDir,
    dir,
    archiveDir,
    url,
    query,
    crash() {
      pgRun('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    },
    start() {
      pgRun('pg_ctl', ['-D', dataDir, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    },
    async createDatabase(name) {
      await query(`CREATE DATABASE ${name}`);
      return url(name);
    },
    async stop() {
      try {
        pgRun('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the replica has replayed everything the primary has written so far. */
export async function waitForReplay(primary: Cluster, replica: Cluster, ms = 30_000): Promise<void> {
  const [{ lsn }] = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  const deadline = Date.now() + ms;
  for (;;) {
    const [{ caught }] = await replica.query<{ caught: boolean }>(`SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS caught`);
    if (caught) return;
    if (Date.now() > deadline) throw new Error(`The replica did not replay up to ${lsn} in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
