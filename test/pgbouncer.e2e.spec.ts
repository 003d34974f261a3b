import { adminToken, aUser, Actor } from './helpers/actors';
import { aCoin, aCurrency, anIssuer, balanceOf, expectBalancedLedger, fund, transfer } from './helpers/money';
import { PgBouncer, startPgBouncer } from './helpers/pgbouncer';
import { Client } from 'pg';
import { MIGRATION_LOCK_KEY } from '../src/platform/database/migrations';
import { createDatabase, startExpectingFailure, startServer, TestServer, within } from './helpers/server';

/** Server connections PgBouncer may open to the database: fewer than the two instances' pools, so they are shared. */
const POOL_SIZE = 4;

/**
 * Two instances behind PgBouncer in transaction mode (DATABASE_POOL_MODE=transaction): each transaction may run on
 * another server connection, so nothing may lean on a connection's session — no named prepared statements, no LISTEN
 * (a connection of its own, DATABASE_LISTEN_URL, straight to PostgreSQL), no session locks or settings.
 */
describe('many instances behind PgBouncer in transaction mode', () => {
  let bouncer: PgBouncer;
  let a: TestServer;
  let b: TestServer;
  let admin: string;
  let alice: Actor;
  let bob: Actor;
  let from: string;
  let to: string;
  /** The database, straight (not through PgBouncer). */
  let direct: string;
  beforeAll(async () => {
    direct = await createDatabase();
    bouncer = await startPgBouncer(direct, { poolMode: 'transaction', poolSize: POOL_SIZE });
    const env = {
      DATABASE_URL: bouncer.url,
      DATABASE_LISTEN_URL: direct,
      DATABASE_POOL_MODE: 'transaction',
      DB_POOL_SIZE: '8',
      // A token stays cached a minute: one refused sooner was heard (NOTIFY), however slow the machine.
      TOKEN_CACHE_SECONDS: '60',
    };
    a = await startServer(env);
    b = await startServer(env);
    admin = await adminToken(a);
    const currency = await aCurrency(a, admin);
    const issuer = await anIssuer(a, admin, currency.code);
    alice = await aUser(a, admin);
    bob = await aUser(b, admin);
    from = (await aCoin(a, alice.token, issuer.id)).serial;
    to = (await aCoin(b, bob.token, issuer.id)).serial;
    await fund(b, admin, from, '100.00');
  });
  afterAll(async () => {
    // stop() throws on a fault the service logged: PgBouncer must stop all the same.
    try {
      await b?.stop();
    } finally {
      try {
        await a?.stop();
      } finally {
        await bouncer?.stop();
      }
    }
  });

  it('moves money from both instances at once over a few shared server connections', async () => {
    const ours = async () => (await bouncer.pools()).find((p) => p.database === new URL(a.databaseUrl).pathname.slice(1))!;
    // The payer's coin is held from outside while the transfers arrive: each waits for it in a transaction, on a server
    // connection, so PgBouncer's few are all taken and the instances' other transactions queue for one — the sharing,
    // reached by events whatever the machine's speed (counting connections after the load depended on its pace).
    const holder = new Client({ connectionString: direct });
    await holder.connect();
    let moves: Promise<Awaited<ReturnType<typeof transfer>>[]>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM coins WHERE serial = $1 FOR UPDATE', [from]);
      moves = Promise.all(
        Array.from({ length: 24 }, (_, i) => transfer(i % 2 ? a : b, alice.token, from, to, '1.25', { key: `parallel-${i}` })),
      );
      expect(await within(60_000, async () => (await ours()).cl_waiting > 0)).toBeLessThan(60_000);
      const pool = await ours();
      expect(pool.pool_mode).toBe('transaction');
      expect(pool.sv_active + pool.sv_idle + pool.sv_used).toBeLessThanOrEqual(POOL_SIZE);
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    const answers = await moves;
    expect(answers.map((m) => m.status)).toEqual(answers.map(() => 201));
    expect(await balanceOf(b, alice.token, from)).toBe('70.00');
    expect(await balanceOf(a, bob.token, to)).toBe('30.00');
  });

  it('replays on one instance a transfer made on the other with the same Idempotency-Key, with one effect', async () => {
    const first = await transfer(a, alice.token, from, to, '5.00', { key: 'once-across-instances' });
    expect(first.status).toBe(201);
    const again = await transfer(b, alice.token, from, to, '5.00', { key: 'once-across-instances' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.process.id).toBe(first.body.process.id);
    expect(await balanceOf(b, alice.token, from)).toBe('65.00');
  });

  it('refuses on one instance, at once, a token logged out on the other', async () => {
    const carol = await aUser(a, admin);
    const profile = (server: TestServer) => server.request('GET', '/api/v1/profiles/my', { token: carol.token });
    // B has resolved the token, and may serve it from its cache for TOKEN_CACHE_SECONDS (60 s) unless it hears otherwise.
    expect((await profile(b)).status).toBe(200);
    expect((await profile(b)).status).toBe(200);
    expect((await a.request('DELETE', '/api/v1/authorization', { token: carol.token })).status).toBe(200);
    expect(await within(30_000, async () => (await profile(b)).status === 401)).toBeLessThan(30_000);
  });

  it('keeps the books balanced, read through either instance', async () => {
    await expectBalancedLedger(a, admin);
    await expectBalancedLedger(b, await adminToken(b));
  });

  it('logged no fault on either instance', () => {
    for (const server of [a, b]) expect(server.logs.filter((line) => line.startsWith('{"level":50,'))).toEqual([]);
  });
});

describe('the migration lock behind PgBouncer in transaction mode', () => {
  it('is taken straight from PostgreSQL (DATABASE_LISTEN_URL), never through the pooler, and released', async () => {
    const direct = await createDatabase();
    const bouncer = await startPgBouncer(direct, { poolMode: 'transaction', poolSize: POOL_SIZE });
    // Another instance or job is migrating: this test holds the lock, so the start below waits for it.
    const holder = new Client({ connectionString: direct });
    await holder.connect();
    let starting: Promise<TestServer> | undefined;
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      starting = startServer({ DATABASE_URL: bouncer.url, DATABASE_LISTEN_URL: direct, DATABASE_POOL_MODE: 'transaction' });
      starting.catch(() => undefined);
      const waiting = async () =>
        (
          await holder.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE application_name = 'finapi-migrations' AND wait_event_type = 'Lock' AND datname = current_database()`,
          )
        ).rows[0].n;
      expect(await within(20_000, async () => (await waiting()) === 1)).toBeLessThan(20_000);
      // Nothing of the migrations came through PgBouncer: a session lock there would stay with a server connection.
      expect((await bouncer.clients()).filter((c) => c.application_name === 'finapi-migrations')).toEqual([]);
      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
      const server = await starting;
      try {
        expect((await server.request('GET', '/api/v1/actuator/health')).status).toBe(200);
        // This database's advisory locks (the other suites' databases share the server and its pg_locks).
        const held = await holder.query(
          `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        expect(held.rows).toEqual([]);
      } finally {
        await server.stop();
      }
    } finally {
      await holder.end();
      if (starting)
        await starting
          .then(
            (s) => s.stop(),
            () => undefined,
          )
          .catch(() => undefined);
      await bouncer.stop();
    }
  });
});

describe('DATABASE_POOL_MODE=transaction, misconfigured', () => {
  const pooled = 'postgres://finapi:finapi@127.0.0.1:6432/finapi';

  it('refuses to start without a direct DATABASE_LISTEN_URL: a LISTEN through the pooler would hear nothing', async () => {
    const { code, output } = await startExpectingFailure({ DATABASE_URL: pooled, DATABASE_POOL_MODE: 'transaction' });
    expect(code).toBe(78);
    expect(output).toContain('Invalid configuration: DATABASE_LISTEN_URL must be set with DATABASE_POOL_MODE=transaction');
  });

  it('refuses settings PgBouncer would refuse (or drop) as startup parameters in DATABASE_URL', async () => {
    const { code, output } = await startExpectingFailure({
      DATABASE_URL: `${pooled}?statement_timeout=5000`,
      DATABASE_LISTEN_URL: 'postgres://finapi:finapi@127.0.0.1:5432/finapi',
      DATABASE_POOL_MODE: 'transaction',
    });
    expect(code).toBe(78);
    expect(output).toContain('Invalid configuration: DATABASE_URL must not carry statement_timeout');
  });

  it('refuses an unknown pool mode', async () => {
    const { code, output } = await startExpectingFailure({ DATABASE_URL: pooled, DATABASE_POOL_MODE: 'statement' });
    expect(code).toBe(78);
    expect(output).toContain('Invalid configuration: DATABASE_POOL_MODE must be one of session, transaction, got');
  });
});
