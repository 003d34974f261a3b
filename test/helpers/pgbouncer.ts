import { ChildProcess, spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { serverDirectory } from './postgres-cluster';
import { freePort } from './server';

/** Debian's `pgbouncer` (installed by .ci/run when missing). */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface PgBouncer {
  port: number;
  /** `url`, the PostgreSQL URL it pools, with PgBouncer's address instead of the server's. */
  url: string;
  /** The admin console's `SHOW POOLS`: clients and server connections per database/user pair. */
  pools(): Promise<PoolRow[]>;
  /** The admin console's `SHOW CLIENTS`: each client connection, with its application_name. */
  clients(): Promise<{ database: string; application_name: string }[]>;
  stop(): Promise<void>;
}

export interface PoolRow {
  database: string;
  user: string;
  cl_active: number;
  cl_waiting: number;
  sv_active: number;
  sv_idle: number;
  sv_used: number;
  pool_mode: string;
}

/**
 * PgBouncer in front of the PostgreSQL of `url` (user and password from it), on a free loopback port, in a temp dir:
 * `pool_mode` transaction and `default_pool_size` server connections per database/user by default. Run as root it
 * drops to `postgres` (`-u`), as the package's service does.
 */
export async function startPgBouncer(
  url: string,
  options: { poolMode?: string; poolSize?: number; serverLoginRetry?: number } = {},
): Promise<PgBouncer> {
  const upstream = new URL(url);
  const user = decodeURIComponent(upstream.username);
  const password = decodeURIComponent(upstream.password);
  const dir = await serverDirectory('finapi-pgbouncer-');
  const port = await freePort();
  await writeFile(join(dir, 'userlist.txt'), `"${user}" "${password}"\n`, { mode: 0o644 });
  await writeFile(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = md5',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `admin_users = ${user}`,
      `pool_mode = ${options.poolMode ?? 'transaction'}`,
      `default_pool_size = ${options.poolSize ?? 5}`,
      'max_client_conn = 200',
      // How long PgBouncer waits after a failed server login before it tries again (15 s by default): after a crash,
      // every client gets 08P01 for that long once the server is back. The operations guide sets 1 s.
      `server_login_retry = ${options.serverLoginRetry ?? 15}`,
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String(port);
  const admin = new URL(through);
  admin.pathname = '/pgbouncer';
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new Client({ connectionString: admin.toString() });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`PgBouncer did not start: ${String(error)}\n${output}`, { cause: error });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    url: through.toString(),
    async clients() {
      const client = new Client({ connectionString: admin.toString() });
      await client.connect();
      try {
        return (await client.query<{ database: string; application_name: string }>('SHOW CLIENTS')).rows;
      } finally {
        await client.end();
      }
    },
    async pools() {
      // The admin console speaks only the simple query protocol: what pg sends for a statement without parameters.
      const client = new Client({ connectionString: admin.toString() });
      await client.connect();
      try {
        const rows = (await client.query<Record<string, string>>('SHOW POOLS')).rows;
        return rows.map((row) => ({
          ...row,
          ...Object.fromEntries(['cl_active', 'cl_waiting', 'sv_active', 'sv_idle', 'sv_used'].map((k) => [k, Number(row[k])])),
        })) as unknown as PoolRow[];
      } finally {
        await client.end();
      }
    },
    stop,
  };
}
