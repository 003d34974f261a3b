import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { appendFileSync, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'lossless-json';
import { Client, Pool } from 'pg';
import { Agent, fetch as undiciFetch } from 'undici';

/** The built service; FINAPI_DIST points elsewhere when several builds live side by side. */
const MAIN = join(process.env.FINAPI_DIST ?? join(__dirname, '..', '..', 'dist'), 'finapi.js');

export const ADMIN_LOGIN = 'admin';
export const ADMIN_PASSWORD = 'admin-password-1';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** The real service, built by `npm run build`, running in its own process on its own database. */
export interface TestServer {
  url: string;
  /** Every line the service printed (its JSON logs among them). */
  logs: string[];
  /** Direct database access for assertions the API does not expose. */
  db: Pool;
  databaseUrl: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /**
   * The first line of the logs containing `text`, once the service wrote it (its JSON lines come asynchronously, even
   * after it answers for what it logged while starting); undefined when none came within `ms`.
   */
  waitForLog(text: string, ms?: number): Promise<string | undefined>;
  stop(): Promise<void>;
  /** Kills the process with SIGKILL (a crash: no shutdown hooks run) and waits for it to exit; the database stays. */
  kill(): Promise<void>;
  /** Whether the process still runs (a fault test asserts no database fault ended it). */
  running(): boolean;
}

/**
 * The environment the suites start the built service with: only PATH and HOME of theirs, on loopback, `overrides` last.
 * NODE_ENV=test turns on the rules only tests enforce: the ledger refuses to post for a request not marked `@Idempotent()`.
 */
export function serviceEnv(port: number, overrides: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_LOGIN,
    ADMIN_PASSWORD,
    BCRYPT_COST: '4',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    ...overrides,
  };
}

/** Ports handed to the servers the suites start, below the OS's range for bind(0) and outgoing connections (32768 up on Linux). */
const PORTS_FROM = 10_000;
const PORTS_TO = 32_000;
/** Each process takes its ports from a block of its own this long. */
const BLOCK = 200;
let block: Promise<number> | undefined;
let nextInBlock = 1;

/** Listens on `port` of loopback: the server once it does, undefined when the port is taken. */
function listenOn(port: number): Promise<ReturnType<typeof createServer> | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** The suite's hold on its block: a server listening on the block's first port. */
let holder: ReturnType<typeof createServer> | undefined;

/**
 * The suite's block of ports: the first one whose first port it can listen on. It keeps listening there until the
 * suite ends, so no other suite — of this run or of another run on the machine — takes the block meanwhile; should the
 * process die, the block is free again with it.
 */
function ownBlock(): Promise<number> {
  block ??= (async () => {
    for (let b = 0; b < Math.floor((PORTS_TO - PORTS_FROM) / BLOCK); b++) {
      holder = await listenOn(PORTS_FROM + b * BLOCK);
      if (holder) {
        holder.unref();
        return b;
      }
    }
    throw new Error(`Every block of ports from ${PORTS_FROM} to ${PORTS_TO} is taken`);
  })();
  return block;
}

// Each suite loads this module afresh (jest's module registry is per test file): its block is given back when it ends.
// (jest's global, looked up: the build compiles this file too, for the harnesses, without jest's types.)
const suiteEnd = (globalThis as { afterAll?: (hook: () => Promise<void>) => void }).afterAll;
suiteEnd?.(() => new Promise<void>((resolve) => (holder ? holder.close(() => resolve()) : resolve())));

/**
 * A loopback port nothing listens on, for a server a test starts (the service, a PostgreSQL cluster, PgBouncer). Each
 * process takes its ports in turn from a block of its own, outside the range the OS gives out: two suites starting
 * servers at once never get the same port, and no outgoing connection takes it before the server binds it. (A port
 * asked of the OS with bind(0), then released, could be given to two suites at once: one service failed to bind,
 * while its suite's requests went to the other's — issue 42.)
 */
export async function freePort(): Promise<number> {
  const first = PORTS_FROM + (await ownBlock()) * BLOCK;
  for (let tries = 1; tries < BLOCK; tries++) {
    const port = first + nextInBlock;
    nextInBlock = (nextInBlock % (BLOCK - 1)) + 1;
    const probe = await listenOn(port);
    if (probe) {
      await new Promise((r) => probe.close(r));
      return port;
    }
  }
  throw new Error(`No free port in the block from ${first}`);
}

/**
 * Creates a fresh database on the suite's PostgreSQL: a copy of the template test/global-setup.mjs migrated once
 * (the service finds no migration to run), named t_<run>_… so the run's teardown drops it.
 */
export async function createDatabase(): Promise<string> {
  const admin = process.env.TEST_DATABASE_URL;
  const run = process.env.FINAPI_TEST_RUN;
  const template = process.env.FINAPI_TEST_TEMPLATE;
  if (!admin || !run || !template)
    throw new Error('TEST_DATABASE_URL, FINAPI_TEST_RUN or FINAPI_TEST_TEMPLATE is not set (test/global-setup.mjs sets them)');
  const name = `t_${run}_${randomBytes(6).toString('hex')}`;
  const client = new Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Parses an answer as a client that needs exact amounts does: a number with a decimal point, or
 * one a JS number would change, is kept as its exact text (`100.00`, `12345678901234567.89`); other
 * numbers (which a JS number holds exactly) stay numbers. Tests that check the wire format itself read `text`.
 */
export function parseExact(text: string): unknown {
  const exact = (literal: string) => /^-?\d+$/.test(literal) && BigInt(Number(literal)) === BigInt(literal);
  return parse(text, null, (literal: string) => (exact(literal) ? Number(literal) : literal));
}

/** Keeps the API's answers for the document check (test/openapi-answers.e2e.spec.ts), when the run records them. */
function record(method: string, path: string, response: { status: number; headers: Headers }, text: string): void {
  const dir = process.env.FINAPI_RECORD_DIR;
  if (!dir || !path.startsWith('/api/v1/')) return;
  const headers = Object.fromEntries(
    ['content-type', 'x-request-id', 'retry-after', 'idempotent-replayed'].map((h) => [h, response.headers.get(h)]),
  );
  appendFileSync(
    join(dir, `${process.pid}.jsonl`),
    `${JSON.stringify({ method, path: path.split('?')[0], status: response.status, headers, text })}\n`,
  );
}

/** Bodies past this size may be answered (413) before they are fully written. */
const OVERSIZED_BYTES = 512 * 1024;

/**
 * Sends a body the service may refuse before reading it: the answer counts, and the write error
 * (EPIPE, ECONNRESET) that follows when the service closes the connection on a 413 does not.
 * fetch reports that write error instead of the answer it already has.
 */
function sendOversized(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer,
): Promise<{ response: { status: number; headers: Headers }; text: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      url,
      { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: 20_000 },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          req.destroy();
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve({ response: { status: res.statusCode ?? 0, headers: responseHeaders }, text: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    // Headers first: a service that refuses by Content-Length answers before the body is written.
    req.flushHeaders();
    setTimeout(() => {
      if (!answered) req.end(body);
    }, 250);
  });
}

/** Connections idle longer than this are never used again: the service closes them after 72 s (Fastify's keep-alive). */
const IDLE_MS = 2_000;

/** Per service (origin): the connections to it, and when it last had a request in flight. */
const origins = new Map<string, { agent: Agent; active: number; lastUsed: number }>();

/**
 * The connections to `origin`, and the work of a request over them. An idle connection is closed after 2 s by its
 * timer; and should that timer not have run (a suite that held its event loop for a minute — Spectral over the whole
 * document, a spawnSync — on a loaded machine), a connection idle that long by the clock is not reused either: the
 * next request gets fresh connections. Otherwise it could go out on a connection the service had just closed, and fail
 * with "other side closed" (issue 42).
 */
async function overConnections<T>(origin: string, work: (agent: Agent) => Promise<T>): Promise<T> {
  let entry = origins.get(origin);
  if (entry && entry.active === 0 && Date.now() - entry.lastUsed > IDLE_MS) {
    void entry.agent.close().catch(() => undefined);
    entry = undefined;
  }
  if (!entry) {
    entry = { agent: new Agent({ keepAliveTimeout: IDLE_MS, keepAliveMaxTimeout: IDLE_MS }), active: 0, lastUsed: Date.now() };
    origins.set(origin, entry);
  }
  entry.active++;
  try {
    return await work(entry.agent);
  } finally {
    entry.active--;
    entry.lastUsed = Date.now();
  }
}

/** fetch over the suites' connections (see `overConnections`), the answer read whole. */
export async function fetchLocal(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ response: Response; text: string }> {
  return overConnections(new URL(url).origin, async (dispatcher) => {
    const response = (await undiciFetch(url, { ...init, dispatcher, signal: AbortSignal.timeout(20_000) })) as unknown as Response;
    return { response, text: await response.text() };
  });
}

export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.token) headers.authorization ??= `Bearer ${options.token}`;
  const { response, text } =
    body !== undefined && Buffer.byteLength(body) > OVERSIZED_BYTES
      ? await sendOversized(baseUrl + path, method, headers, body)
      : await fetchLocal(baseUrl + path, { method, headers, body });
  record(method, path, response, text);
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = parseExact(text);
  return { status: response.status, body: parsed as T, headers: response.headers, text };
}

/**
 * `allowFaults`: the suite provokes faults on purpose (the database taken away); otherwise `stop()`
 * fails the suite when the service logged any (level error): a fault behind a 4xx, or a 5xx, is a bug.
 * `main`: another built entry point than the service's (a fixture that adds a module, see test/fixtures).
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { allowFaults?: boolean; main?: string } = {},
): Promise<TestServer> {
  const databaseUrl = env.DATABASE_URL ?? (await createDatabase());
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [options.main ?? MAIN], {
    env: serviceEnv(port, { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', DB_POOL_SIZE: '10', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let buffered = '';
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    logs.push(...lines);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Its last words (a refusal's) may still be on their way when it exits: read to the end before they are told.
  const said = outputRead(child).then(() => {
    if (buffered) logs.push(buffered);
    buffered = '';
  });
  const url = `http://127.0.0.1:${port}`;
  // The health route, not the "finapi listening on" line: that one is an info line, which LOG_LEVEL=warn hides. A minute
  // (jest's hook timeout): a start takes seconds, more on a loaded machine.
  if (!(await waitHealthy(url, child, 60_000))) {
    const code = await Promise.race([exited, new Promise((r) => setTimeout(r, 100, 'running'))]);
    if (code === 'running') child.kill('SIGKILL');
    else await said;
    throw new Error(
      code === 'running'
        ? `The service did not start in 60 s:\n${logs.join('\n')}`
        : `The service exited (${String(code)}):\n${logs.join('\n')}`,
    );
  }
  const db = new Pool({ connectionString: databaseUrl, max: 3 });
  // A database the suite takes away (a fault test) ends the pool's idle connections: no reason to end the suite.
  db.on('error', () => undefined);
  return {
    url,
    running: () => child.exitCode === null && child.signalCode === null,
    logs,
    db,
    databaseUrl,
    request: (method, path, options) => request(url, method, path, options),
    async waitForLog(text, ms = 10_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const line = logs.find((l) => l.includes(text));
        if (line !== undefined || Date.now() > deadline) return line;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      await db.end().catch(() => undefined);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      const faults = logs.filter((line) => line.startsWith('{"level":50,'));
      if (faults.length && !options.allowFaults) {
        throw new Error(`The service logged ${faults.length} fault(s):\n${faults.map((f) => f.slice(0, 2000)).join('\n')}`);
      }
    },
    async kill() {
      await db.end().catch(() => undefined);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Spawns the service and expects it to refuse to start; answers its exit code and output. */
export async function startExpectingFailure(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const read = outputRead(child);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  await read;
  return { code, output };
}

/**
 * Resolves once a child's output has been read to its end ('close': Node may tell 'exit' before the last of it has
 * arrived, and a refusal's line is the last), or 5 s after it exited should something it started keep the pipes open.
 * Called as the child is spawned, before either event.
 */
function outputRead(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('exit', () => setTimeout(resolve, 5_000).unref());
  });
}

/** Never leaves an embedded server behind: stops the postmaster of `pidFile` (a cluster's `postmaster.pid`) if it still runs. */
export async function stopLeftoverPostgres(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!(pid > 0)) return;
  try {
    process.kill(pid, 'SIGINT');
    await new Promise((r) => setTimeout(r, 2000));
  } catch {
    // already gone
  }
}

/**
 * Waits until the service at `url` answers `GET /actuator/health` with 200: true once it does; false when `child`
 * exits first or `ms` pass. For tests that start the service themselves (whatever LOG_LEVEL they give it).
 */
export async function waitHealthy(url: string, child?: ChildProcess, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) return false;
    const status = await fetch(`${url}/api/v1/actuator/health`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Polls until `check` holds or `ms` pass; answers how long it took (Infinity when it never held). */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 5));
  }
  return Infinity;
}

/** Reads until `done` holds of what `read` answers or `ms` pass (every 50 ms); answers the last value read. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - started > ms) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * How long a change may take to reach another instance in the suites. A cache keeps what it has until it hears of a
 * change (the token cache for TOKEN_CACHE_SECONDS=60 in its suite), so a change seen sooner was heard (NOTIFY), whatever
 * the machine's load: the tests wait for it, they do not time it (a bound of 1 s failed on a loaded machine, issue 42).
 */
export const HEARD_WITHIN_MS = 30_000;

/** `db;dur=…;desc="N calls"` of a Server-Timing header (SERVER_TIMING=true): N, the statements the request ran. */
export function dbCalls(header: string | null): number {
  const match = /desc="(\d+) calls"/.exec(header ?? '');
  if (!match) throw new Error(`no database calls in Server-Timing: ${String(header)}`);
  return Number(match[1]);
}
