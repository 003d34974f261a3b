import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Client } from 'pg';
import { adminOf, makeReleaseData, readBalances, ReleaseData, transferAliceToBob } from './harness/release-data';
import { Cluster, debianPostgresBin, pgRun, serverDirectory, startCluster } from './helpers/postgres-cluster';
import { runRunbook } from './helpers/runbook';
import { ADMIN_LOGIN, ADMIN_PASSWORD, request, startServer, TestServer } from './helpers/server';
import { multipart } from './helpers/upload';

/**
 * Issue 33, item 6: the Backups, Restore, Point-in-time recovery and Upgrades sections of docs/operations.md, each
 * block run as the guide writes it (test/helpers/runbook.ts), on Debian's PostgreSQL (whose pg_dump and pg_basebackup
 * the embedded server lacks), with data that must survive: money, a fee, a hold and the action log.
 */
jest.setTimeout(600_000);

const PGBIN = debianPostgresBin();
const AUDIT_CHAIN_KEY = 'backups-suite-audit-chain-key-0123456789abcdef';
const RELEASES = join(__dirname, 'fixtures', 'releases');

/** The newest release whose database test/fixtures/releases keeps (scripts/release-fixture.mjs): the one to upgrade from. */
function newestFixture(): string {
  const versions = readdirSync(RELEASES)
    .map((file) => /^v(\d+)\.(\d+)\.(\d+)\.json$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(b[1]) - Number(a[1]) || Number(b[2]) - Number(a[2]) || Number(b[3]) - Number(a[3]));
  if (!versions.length) throw new Error(`No release fixture in ${RELEASES}`);
  return `v${versions[0][1]}.${versions[0][2]}.${versions[0][3]}`;
}

/** Everything a test started, stopped in reverse order whatever happens. */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  const failures: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => failures.push(error));
  // A service that logged a fault fails the test (TestServer.stop), after everything is stopped.
  if (failures.length) throw failures[0];
});

async function aCluster(): Promise<Cluster> {
  const cluster = await startCluster();
  cleanups.push(() => cluster.stop());
  return cluster;
}

async function aService(env: Record<string, string>): Promise<TestServer> {
  const server = await startServer(env);
  cleanups.push(() => server.stop());
  return server;
}

async function aTempDir(prefix: string, owner: 'postgres' | 'us' = 'us'): Promise<string> {
  const dir = owner === 'postgres' ? await serverDirectory(prefix) : await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The guide's checks after a restore or an upgrade, against the service at `url`. */
async function checkAfter(url: string, admin = { login: ADMIN_LOGIN, password: ADMIN_PASSWORD }): Promise<string> {
  const { stdout } = await runRunbook('check-after', { FINAPI_URL: url, ADMIN_LOGIN: admin.login, ADMIN_PASSWORD: admin.password });
  return stdout;
}

async function count(databaseUrl: string, sql: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query(sql)).rows[0].count);
  } finally {
    await client.end();
  }
}

async function acceptWithdrawal(url: string, data: ReleaseData): Promise<number> {
  const admin = await adminOf(url);
  return (await request(url, 'POST', `/api/v1/bank-withdrawals/${data.pendingWithdrawalId}/accept`, { token: admin })).status;
}

/** Alice uploads a scan (POST /media-files): answers its path. */
async function uploadScan(url: string, data: ReleaseData, content: Buffer): Promise<string> {
  const token = await login(url, data.users.alice);
  const { body, contentType } = multipart('file', 'passport.png', content, 'image/png');
  const uploaded = await request(url, 'POST', '/api/v1/media-files', { token, rawBody: body, headers: { 'content-type': contentType } });
  expect(uploaded.status).toBe(201);
  return `/api/v1/media-files/${uploaded.body.file.id}/passport.png`;
}

async function downloadScan(url: string, data: ReleaseData, path: string): Promise<Buffer> {
  const token = await login(url, data.users.alice);
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function login(url: string, user: { login: string; password: string }): Promise<string> {
  const answer = await request(url, 'POST', '/api/v1/authorization', { body: { login: user.login, password: user.password } });
  expect(answer.status).toBe(200);
  return answer.body.authorizationToken.token as string;
}

describe('backups, restore, point-in-time recovery and upgrades (docs/operations.md, issue 33)', () => {
  it('restores a pg_dump of a database with money, a fee, a hold and actions, its key and uploaded files, into a fresh database: same balances and file, both checks pass', async () => {
    const cluster = await aCluster();
    const sourceUrl = await cluster.createDatabase('finapi_source');
    const sourceDataDir = await aTempDir('finapi-source-data-');
    const sourceFiles = join(sourceDataDir, 'files');
    // No AUDIT_CHAIN_KEY: the service keeps its generated key in DATA_DIR, which the backup must carry over; uploaded
    // files' bytes in MEDIA_FILES_DIR, which it must carry over too.
    const source = await aService({ DATABASE_URL: sourceUrl, DATA_DIR: sourceDataDir, MEDIA_FILES_DIR: sourceFiles });
    const data = await makeReleaseData(source.url);
    const scan = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(1000)]);
    const file = await uploadScan(source.url, data, scan);
    expect(data.balances[data.users.alice.coinSerial]).toEqual({ amount: '886.54', heldAmount: '0.00', availableAmount: '886.54' });
    expect(data.balances[data.users.bob.coinSerial]).toEqual({ amount: '162.34', heldAmount: '20.00', availableAmount: '142.34' });
    const actions = await count(sourceUrl, 'SELECT count(*) FROM user_actions');
    expect(actions).toBeGreaterThan(5);
    expect(await count(sourceUrl, `SELECT count(*) FROM commission_rules`)).toBeGreaterThan(0);

    const backupDir = await aTempDir('finapi-backup-');
    const dumped = await runRunbook('backup-dump', {
      PGBIN,
      DATABASE_URL: sourceUrl,
      DATA_DIR: sourceDataDir,
      MEDIA_FILES_DIR: sourceFiles,
      BACKUP_DIR: backupDir,
    });
    const dump = dumped.stdout.trim().split('\n').pop()!;
    expect(dump).toMatch(new RegExp(`^${backupDir}/finapi-\\d{8}T\\d{6}Z\\.dump$`));
    expect(readdirSync(backupDir).sort()).toEqual(['audit-chain.key', dump.slice(backupDir.length + 1), 'media-files.tar.gz'].sort());
    // After the dump: not in the restored database.
    await transferAliceToBob(source.url, data, '1.00');
    await source.stop();

    const restoredUrl = await cluster.createDatabase('finapi_restored');
    const restoredDataDir = join(await aTempDir('finapi-restored-'), 'data');
    const restoredFiles = join(restoredDataDir, '..', 'files');
    const restoredEnv = { DATA_DIR: restoredDataDir, MEDIA_FILES_DIR: restoredFiles };
    await runRunbook('restore-dump', { PGBIN, RESTORE_URL: restoredUrl, DUMP: dump, BACKUP_DIR: backupDir, ...restoredEnv });
    expect(await count(restoredUrl, 'SELECT count(*) FROM user_actions')).toBe(actions);
    expect(readFileSync(join(restoredDataDir, 'audit-chain.key'), 'utf8')).toBe(
      readFileSync(join(sourceDataDir, 'audit-chain.key'), 'utf8'),
    );

    const restored = await aService({ DATABASE_URL: restoredUrl, ...restoredEnv });
    expect(await readBalances(restored.url, data.users)).toEqual(data.balances);
    expect(await downloadScan(restored.url, data, file)).toEqual(scan);
    // The hold came back as a hold: staff can still decide the withdrawal, which pays out what was held.
    expect(await acceptWithdrawal(restored.url, data)).toBe(200);
    expect((await readBalances(restored.url, data.users))[data.users.bob.coinSerial]).toEqual({
      amount: '142.34',
      heldAmount: '0.00',
      availableAmount: '142.34',
    });
    expect(await checkAfter(restored.url)).toMatch(/^ledger balanced; action log intact up to action \d+$/m);
  });

  it('recovers a base backup and its archived WAL to a moment: the money as of then, both checks pass', async () => {
    const primary = await aCluster();
    const archive = await aTempDir('finapi-wal-', 'postgres');
    await runRunbook('wal-archiving', { PGBIN, PGDATA: primary.dataDir, WAL_ARCHIVE: archive }, { osUser: 'postgres' });
    expect(await primary.query('SHOW archive_mode')).toEqual([{ archive_mode: 'on' }]);
    const databaseUrl = await primary.createDatabase('finapi');
    const env = { DATABASE_URL: databaseUrl, AUDIT_CHAIN_KEY };
    const service = await aService(env);
    const data = await makeReleaseData(service.url);

    const backupDir = await aTempDir('finapi-backup-', 'postgres');
    const backedUp = await runRunbook('base-backup', { PGBIN, DATABASE_URL: databaseUrl, BACKUP_DIR: backupDir }, { osUser: 'postgres' });
    const baseBackup = backedUp.stdout.trim().split('\n').pop()!;
    expect(readdirSync(baseBackup).sort()).toEqual(expect.arrayContaining(['base.tar.gz', 'pg_wal.tar.gz']));
    // After the base backup, before the moment: recovered by replaying the archive.
    await transferAliceToBob(service.url, data, '5.00');
    const asOfThen = await readBalances(service.url, data.users);
    await new Promise((r) => setTimeout(r, 1100));
    const [{ moment }] = await primary.query<{ moment: string }>('SELECT clock_timestamp()::text AS moment');
    await new Promise((r) => setTimeout(r, 1100));
    // After the moment: left out.
    await transferAliceToBob(service.url, data, '7.00');
    await transferAliceToBob(service.url, data, '8.00');
    expect(await readBalances(service.url, data.users)).not.toEqual(asOfThen);
    const [{ segment }] = await primary.query<{ segment: string }>('SELECT pg_walfile_name(pg_switch_wal()) AS segment');
    for (const deadline = Date.now() + 60_000; !existsSync(join(archive, segment));) {
      if (Date.now() > deadline) throw new Error(`WAL segment ${segment} was not archived in 60 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await service.stop();
    // The disaster: the primary is gone (its directory stays, for the copied configuration's socket directory).
    pgRun('pg_ctl', ['-D', primary.dataDir, '-m', 'fast', '-w', 'stop']);

    const newPgData = join(await aTempDir('finapi-pitr-', 'postgres'), 'data');
    cleanups.push(async () => {
      if (existsSync(join(newPgData, 'postmaster.pid'))) pgRun('pg_ctl', ['-D', newPgData, '-m', 'immediate', '-w', 'stop']);
    });
    await runRunbook(
      'pitr-restore',
      { PGBIN, BASE_BACKUP: baseBackup, NEW_PGDATA: newPgData, WAL_ARCHIVE: archive, RECOVERY_TARGET_TIME: moment },
      { osUser: 'postgres', timeoutMs: 600_000 },
    );
    // The copied postgresql.conf keeps the primary's port: the recovered cluster answers at the same address.
    for (const deadline = Date.now() + 120_000; ;) {
      const [{ recovering }] = await primary.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
      if (!recovering) break;
      if (Date.now() > deadline) throw new Error(`The recovered cluster did not promote in 120 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(readFileSync(join(newPgData, 'server.log'), 'utf8')).toContain('recovery stopping before commit');

    const recovered = await aService(env);
    expect(await readBalances(recovered.url, data.users)).toEqual(asOfThen);
    expect(await checkAfter(recovered.url)).toContain('ledger balanced; action log intact');
  });

  it('upgrades the database the previous release left (test/fixtures/releases, v0.32.0 or newer): every migration applied, same balances, both checks pass', async () => {
    const release = newestFixture();
    const fixture = JSON.parse(readFileSync(join(RELEASES, `${release}.json`), 'utf8'));
    expect(fixture.release).toBe(release);
    const migrationFiles = readdirSync(join(__dirname, '..', 'migrations'))
      .map((file) => /^(\d+)-(\w+)\.ts$/.exec(file))
      .filter((m): m is RegExpExecArray => m !== null)
      .sort((a, b) => Number(a[1]) - Number(b[1]))
      .map((m) => `${m[2]}${m[1]}`);
    // Today's migrations extend the release's, in order: an upgrade never meets a migration it skipped.
    expect(migrationFiles.slice(0, fixture.migrations.length)).toEqual(fixture.migrations);
    const cluster = await aCluster();
    const applied = async (url: string) =>
      (await cluster.query<{ name: string }>('SELECT name FROM migrations ORDER BY timestamp', new URL(url).pathname.slice(1))).map(
        (r) => r.name,
      );
    const restoreFixture = async (name: string) => {
      const url = await cluster.createDatabase(name);
      const sql = gunzipSync(readFileSync(join(RELEASES, `${release}.sql.gz`)));
      const psql = spawnSync(join(PGBIN, 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '-d', url], {
        input: sql,
        encoding: 'utf8',
      });
      if (psql.status !== 0) throw new Error(`restoring the ${release} fixture failed: ${psql.stderr}`);
      expect(await applied(url)).toEqual(fixture.migrations);
      return url;
    };
    const env = (url: string) => ({ DATABASE_URL: url, AUDIT_CHAIN_KEY: fixture.auditChainKey });

    // The migrations job first, then the new release.
    const migratedUrl = await restoreFixture('finapi_job');
    await runRunbook('upgrade-migrate', { ...env(migratedUrl), NODE_ENV: 'test', LOG_LEVEL: 'warn' });
    expect(await applied(migratedUrl)).toEqual(migrationFiles);
    const upgraded = await aService(env(migratedUrl));
    expect(await readBalances(upgraded.url, fixture.data.users)).toEqual(fixture.data.balances);
    expect(await checkAfter(upgraded.url, fixture.admin)).toContain('ledger balanced; action log intact');

    // Or the first instance of the new release migrates as it starts; the old release's hold is decided by the new one.
    const startedUrl = await restoreFixture('finapi_start');
    const started = await aService(env(startedUrl));
    expect(await applied(startedUrl)).toEqual(migrationFiles);
    expect(await readBalances(started.url, fixture.data.users)).toEqual(fixture.data.balances);
    expect(await acceptWithdrawal(started.url, fixture.data)).toBe(200);
    expect(await checkAfter(started.url, fixture.admin)).toContain('ledger balanced; action log intact');
  });
});
