#!/usr/bin/env node
// The database a release leaves behind, for the upgrade test of the next ones (test/backups.e2e.spec.ts):
//
//   npm run build && node scripts/release-fixture.mjs v0.32.0
//
// builds the tagged release in a temporary git worktree (node_modules linked when its package-lock.json is today's,
// else `npm ci` there), runs it on an empty database of a fresh Debian PostgreSQL cluster (so its own migrations make
// the schema), gives it data through its API with today's test/harness/release-data.ts (money, a fee, a hold, the
// actions they log), and writes
//   test/fixtures/releases/<tag>.sql.gz  a plain-SQL pg_dump of that database (no owners, no grants);
//   test/fixtures/releases/<tag>.json    what the test needs to read it back: the administrator, the action log's
//                                         key, the data's logins and balances, the migrations the release ran.
// Once committed, the fixture needs neither the tag nor git history: the test only restores it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync, chownSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The action log's key of every fixture: the upgrade test starts today's service with it. Not a secret. */
const AUDIT_CHAIN_KEY = 'release-fixture-audit-chain-key-not-a-secret-0001';
/** The administrator the fixture's release created (the test suites' ADMIN_LOGIN / ADMIN_PASSWORD). */
const ADMIN = { login: 'admin', password: 'admin-password-1' };

const tag = process.argv[2];
if (!tag || !/^v\d+\.\d+\.\d+$/.test(tag)) fail('usage: node scripts/release-fixture.mjs v<major>.<minor>.<patch> (an existing tag)');
const harness = join(ROOT, 'dist', 'test', 'harness', 'release-data.js');
if (!existsSync(harness)) fail(`${harness} is missing: run npm run build first`);

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

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

// Debian's PostgreSQL (as test/helpers/postgres-cluster.ts finds it), run as `postgres` when we are root.
const PGBIN = (() => {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))) : [];
  if (!versions.length) fail(`No PostgreSQL server under ${base}: install Debian's postgresql package`);
  return join(base, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
})();
const asRoot = process.getuid?.() === 0;
const ids = asRoot ? { uid: Number(run('id', ['-u', 'postgres'])), gid: Number(run('id', ['-g', 'postgres'])) } : {};
const pg = (program, args, options = {}) => run(join(PGBIN, program), args, { cwd: tmpdir(), ...ids, ...options });

const work = mkdtempSync(join(tmpdir(), `finapi-release-${tag}-`));
const source = join(work, 'source');
const dataDir = join(work, 'pg');
const steps = [];
let service;
try {
  const commit = run('git', ['-C', ROOT, 'rev-list', '-n', '1', tag]).trim();
  process.stdout.write(`${tag} is ${commit}; building it in ${source}\n`);
  run('git', ['-C', ROOT, 'worktree', 'add', '--detach', source, tag]);
  steps.push(() => run('git', ['-C', ROOT, 'worktree', 'remove', '--force', source]));
  const sameLock = spawnSync('git', ['-C', ROOT, 'diff', '--quiet', tag, '--', 'package-lock.json']).status === 0;
  if (sameLock) symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'));
  else run('npm', ['ci'], { cwd: source, stdio: 'inherit' });
  run('npx', ['nest', 'build'], { cwd: source });

  const port = await freePort();
  mkdirSync(dataDir, { mode: 0o700 });
  if (asRoot) {
    chownSync(work, ids.uid, ids.gid);
    chownSync(dataDir, ids.uid, ids.gid);
  }
  pg('initdb', ['-D', dataDir, '-U', 'finapi', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  pg('pg_ctl', ['-D', dataDir, '-l', join(work, 'server.log'), '-o', `-p ${port} -k ${work} -c listen_addresses=127.0.0.1`, '-w', 'start']);
  steps.unshift(() => pg('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']));
  const admin = `postgres://finapi@127.0.0.1:${port}/postgres`;
  pg('psql', [admin, '-v', 'ON_ERROR_STOP=1', '-c', 'CREATE DATABASE finapi']);
  const databaseUrl = `postgres://finapi@127.0.0.1:${port}/finapi`;

  const httpPort = await freePort();
  const url = `http://127.0.0.1:${httpPort}`;
  // The release's own production command (start:prod, or start before there was one): it names the file to run
  // (dist/src/main.js before the build bundled the service into dist/finapi.js).
  const { scripts } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const [, ...startArgs] = (scripts['start:prod'] ?? scripts.start).split(' ');
  service = spawn(process.execPath, startArgs, {
    cwd: source,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(httpPort),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: join(work, 'data'),
      AUDIT_CHAIN_KEY,
      ADMIN_LOGIN: ADMIN.login,
      ADMIN_PASSWORD: ADMIN.password,
      BCRYPT_COST: '4',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (service.exitCode !== null) throw new Error(`${tag} exited (${service.exitCode}) while starting`);
    const status = await fetch(`${url}/api/v1/actuator/health`).then((r) => r.status, () => 0);
    if (status === 200) break;
    if (Date.now() > deadline) throw new Error(`${tag} did not become healthy in 120 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const data = JSON.parse(run(process.execPath, [harness, url]));
  service.kill('SIGTERM');
  await new Promise((r) => (service.exitCode !== null ? r() : service.once('exit', r)));

  const migrations = pg('psql', [databaseUrl, '-At', '-c', 'SELECT name FROM migrations ORDER BY timestamp']).trim().split('\n');
  const dump = pg('pg_dump', ['--format=plain', '--no-owner', '--no-privileges', databaseUrl]);
  const out = join(ROOT, 'test', 'fixtures', 'releases');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${tag}.sql.gz`), gzipSync(dump, { level: 9 }));
  const pgVersion = pg('pg_dump', ['--version']).trim();
  const description = { release: tag, commit, dumpedBy: pgVersion, auditChainKey: AUDIT_CHAIN_KEY, admin: ADMIN, migrations, data };
  writeFileSync(join(out, `${tag}.json`), `${JSON.stringify(description, null, 2)}\n`);
  process.stdout.write(`Wrote test/fixtures/releases/${tag}.sql.gz and ${tag}.json (${migrations.length} migrations)\n`);
} finally {
  if (service && service.exitCode === null) service.kill('SIGKILL');
  for (const step of steps) {
    try {
      step();
    } catch (error) {
      process.stderr.write(`cleanup: ${error.message}\n`);
    }
  }
  rmSync(work, { recursive: true, force: true });
}
