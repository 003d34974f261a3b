import { randomUUID } from 'node:crypto';
import { adminToken, aUser, Actor } from './helpers/actors';
import { aCoin, aCurrency, anIssuer, CoinBody, Dec, fund, transfer } from './helpers/money';
import { startPgBouncer } from './helpers/pgbouncer';
import { PgProxy } from './helpers/pg-proxy';
import { Cluster, startCluster, waitForReplay } from './helpers/postgres-cluster';
import { ApiResponse, startServer, TestServer, within } from './helpers/server';

/**
 * Issue 44: the service rides out its database. Each fault runs under load — clients sending transfers to two
 * instances, keyed ones retried with their key — against a PostgreSQL of its own (Debian's, as the operations suites
 * run), reached through a proxy the test controls (test/helpers/pg-proxy.ts). Each asserts what an operator is
 * promised: no process exits; only 503 `exception.unavailable` (with Retry-After) while it lasts, no other 5xx;
 * transfers succeed again within 5 s of the database taking writes; readiness 503 during, 200 after; every
 * acknowledged transfer exactly once, no unkeyed duplicate, balances exact; a logout on one instance refused on the
 * other within 3 s.
 */

const CLIENTS = 8;
const AMOUNT = '0.01';
const FUNDS = '1000.00';

interface Sent {
  /** Each request carries a description of its own: its operation, if it was written, is found by it. */
  description: string;
  key?: string;
  answers: ApiResponse[];
}

/** Transfers from many clients to two instances until stopped; keyed ones retried with their key until answered. */
class Load {
  readonly sent: Sent[] = [];
  private running = true;
  private readonly loops: Promise<void>[] = [];
  private n = 0;
  /** Descriptions are unique across loads: `load-<run>-<client>-<n>`. */
  private readonly run = randomUUID().slice(0, 8);

  constructor(
    private readonly instances: TestServer[],
    private readonly payers: { actor: Actor; coin: CoinBody }[],
    private readonly payee: CoinBody,
  ) {}

  start(): void {
    for (let c = 0; c < CLIENTS; c++) this.loops.push(this.client(c));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** Answers since `from` (an index into the flat list of answers). */
  answers(): ApiResponse[] {
    return this.sent.flatMap((s) => s.answers);
  }

  private async client(c: number): Promise<void> {
    const { actor, coin } = this.payers[c % this.payers.length];
    for (let i = 0; this.running; i++) {
      const server = this.instances[(c + i) % this.instances.length];
      const keyed = i % 2 === 0;
      const sent: Sent = { description: `load-${this.run}-${c}-${this.n++}`, key: keyed ? randomUUID() : undefined, answers: [] };
      this.sent.push(sent);
      for (let attempt = 0; ; attempt++) {
        const answer = await transfer(server, actor.token, coin.serial, this.payee.serial, AMOUNT, {
          description: sent.description,
          ...(sent.key ? { key: sent.key } : {}),
        }).catch((error: Error) => ({ status: 0, text: String(error.message), body: undefined, headers: new Headers() }) as ApiResponse);
        sent.answers.push(answer);
        // An unkeyed request is not retried (its outcome may be unknown to the client); a keyed one until it is answered.
        if (!sent.key || answer.status === 201 || !this.running || attempt > 200) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      if (sent.answers.at(-1)?.status !== 201) await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('database faults under load (issue 44)', () => {
  let primary: Cluster;
  let proxy: PgProxy;
  let direct: string;
  let A: TestServer;
  let B: TestServer;
  let admin: string;
  let payers: { actor: Actor; coin: CoinBody }[];
  let payee: CoinBody;
  /** The replica promoted by the failover test, stopped with the rest. */
  let promoted: Cluster | undefined;

  beforeAll(async () => {
    // An acknowledged commit must survive a crash: synchronous_commit on (the test clusters' default is off, for speed).
    primary = await startCluster({ settings: ['synchronous_commit = on'] });
    direct = await primary.createDatabase('finapi');
    proxy = new PgProxy(primary.port);
    await proxy.start();
    const env = {
      DATABASE_URL: proxy.url(direct),
      TOKEN_CACHE_SECONDS: '60',
      DB_POOL_SIZE: '10',
    };
    A = await startServer(env, { allowFaults: true });
    B = await startServer(env, { allowFaults: true });
    admin = await adminToken(A);
    const currency = await aCurrency(A, admin);
    const issuer = await anIssuer(A, admin, currency.code);
    payers = [];
    for (let i = 0; i < 4; i++) {
      const actor = await aUser(A, admin);
      const coin = await aCoin(A, actor.token, issuer.id);
      await fund(A, admin, coin.serial, FUNDS);
      payers.push({ actor, coin });
    }
    const owner = await aUser(A, admin);
    payee = await aCoin(A, owner.token, issuer.id);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([A?.stop(), B?.stop()]);
    await proxy?.stop();
    await primary?.stop();
    await promoted?.stop();
  });

  /** The operations written per request description, from the database `on` (the primary, or the one promoted). */
  const written = async (on: Cluster = primary): Promise<Map<string, { id: string }[]>> => {
    const rows = await on.query<{ description: string; id: string }>(
      `SELECT description, id FROM operations WHERE description LIKE 'load-%' OR description LIKE 'cut-%'`,
      'finapi',
    );
    const map = new Map<string, { id: string }[]>();
    for (const row of rows) map.set(row.description, [...(map.get(row.description) ?? []), { id: row.id }]);
    return map;
  };

  /** Every acknowledged transfer once, with the operation it answered; none written twice; balances exact. */
  const expectExactlyOnce = async (load: Sent[], on: Cluster = primary, server: TestServer = A) => {
    const ops = await written(on);
    for (const [description, list] of ops) expect({ description, times: list.length }).toEqual({ description, times: 1 });
    for (const sent of load) {
      const acknowledged = sent.answers.filter((a) => a.status === 201);
      if (!acknowledged.length) continue;
      const op = ops.get(sent.description);
      expect({ description: sent.description, written: op?.length ?? 0 }).toEqual({ description: sent.description, written: 1 });
      for (const a of acknowledged) expect(a.body.process.id).toBe(op![0].id);
    }
    const check = await server.request('GET', '/api/v1/actuator/ledger-check', { token: admin });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ status: 'ok', balanced: true });
    const [{ total }] = await on.query<{ total: string }>(
      `SELECT sum(balance)::text AS total FROM coins WHERE serial = ANY('{${[payee.serial, ...payers.map((p) => p.coin.serial)].join(',')}}'::bigint[])`,
      'finapi',
    );
    expect(new Dec(total).toFixed(2)).toBe(new Dec(FUNDS).times(payers.length).toFixed(2));
  };

  /** Only 201s, and 503 exception.unavailable with Retry-After: no other 5xx, no refused or reset connection. */
  const expectOnly503s = (answers: ApiResponse[], ok = 201) => {
    const other = answers.filter((a) => a.status !== ok && a.status !== 503).map((a) => `${a.status} ${a.text.slice(0, 200)}`);
    expect(other).toEqual([]);
    for (const a of answers.filter((x) => x.status === 503)) {
      expect(a.body?.code).toBe('exception.unavailable');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  };

  const ready = async (server: TestServer) => (await server.request('GET', '/api/v1/actuator/health/readiness')).status;

  /** A transfer of its own on `server`: whether it succeeds now. */
  const transfers = (server: TestServer) => async () => {
    const { actor, coin } = payers[3];
    const r = await transfer(server, actor.token, coin.serial, payee.serial, AMOUNT, {
      description: `load-probe-${randomUUID().slice(0, 8)}`,
    });
    return r.status === 201;
  };

  /** What a fault cost, as measured: for the closing note and docs/operations.md. */
  const costs: string[] = [];
  afterAll(() => {
    if (costs.length) process.stdout.write(`\nWhat each fault cost (issue 44):\n${costs.join('\n')}\n`);
  });

  /**
   * Runs `fault` under load on `instances` and asserts what every fault must cost and no more. `fault` resolves once
   * the database takes writes again (a restart done, a replica promoted); `on` is then the database to check.
   */
  const rideOut = async (name: string, instances: TestServer[], fault: () => Promise<void>, on: () => Cluster = () => primary) => {
    const load = new Load(instances, payers, payee);
    const user = await aUser(instances[0], admin);
    load.start();
    try {
      // Transfers flow on every instance before the fault.
      expect(await within(30_000, async () => load.answers().filter((a) => a.status === 201).length >= 20)).not.toBe(Infinity);
      const faultAt = Date.now();
      await fault();
      const upAt = Date.now();
      // Transfers succeed again on every instance within 5 s of the database taking writes.
      for (const server of instances) expect(await within(30_000, transfers(server))).not.toBe(Infinity);
      const back = Date.now() - upAt;
      expect(back).toBeLessThan(5_000);
      for (const server of instances) expect(await within(5_000, async () => (await ready(server)) === 200)).not.toBe(Infinity);
      // A logout on one instance is refused on the other within 3 s (the LISTEN connection came back).
      const [first, second = first] = instances;
      expect((await second.request('GET', '/api/v1/profiles/my', { token: user.token })).status).toBe(200);
      expect((await first.request('DELETE', '/api/v1/authorization', { token: user.token })).status).toBe(200);
      const loggedOutAt = Date.now();
      expect(
        await within(10_000, async () => (await second.request('GET', '/api/v1/profiles/my', { token: user.token })).status === 401),
      ).not.toBe(Infinity);
      const heard = Date.now() - loggedOutAt;
      expect(heard).toBeLessThan(3_000);
      await load.stop();
      for (const server of instances) expect(server.running()).toBe(true);
      const answers = load.answers();
      expectOnly503s(answers);
      await expectExactlyOnce(load.sent, on(), instances[0]);
      costs.push(
        `${name}: ${answers.filter((a) => a.status === 503).length} × 503 of ${answers.length} answers; transfers back ${back} ms after ` +
          `the database took writes (${Date.now() - faultAt} ms fault to checked); a logout heard in ${heard} ms`,
      );
    } finally {
      await load.stop();
    }
  };

  describe('a COMMIT whose answer is lost', () => {
    it.each([
      ['after', 'unkeyed'],
      ['after', 'keyed'],
      ['before', 'unkeyed'],
      ['before', 'keyed'],
    ] as const)('cut %s it reaches the server, %s: answered once with what happened, or 503; never written twice', async (where, kind) => {
      const { actor, coin } = payers[0];
      const description = `cut-${where}-${kind}-${randomUUID().slice(0, 8)}`;
      const key = kind === 'keyed' ? randomUUID() : undefined;
      const cut = proxy.cutCommit(where, /INSERT INTO operations/i);
      const first = await transfer(A, actor.token, coin.serial, payee.serial, AMOUNT, { description, ...(key ? { key } : {}) });
      expect(await cut).toBe(true);
      expect([201, 503]).toContain(first.status);
      let ops = (await written()).get(description) ?? [];
      if (first.status === 201) {
        expect(ops).toHaveLength(1);
        expect(first.body.process.id).toBe(ops[0].id);
      } else {
        expectOnly503s([first]);
      }
      if (key) {
        // A retry with the key answers what happened: the one operation, written now or replayed.
        const retry = await transfer(A, actor.token, coin.serial, payee.serial, AMOUNT, { description, key });
        expect(retry.status).toBe(201);
        ops = (await written()).get(description) ?? [];
        expect(ops).toHaveLength(1);
        expect(retry.body.process.id).toBe(ops[0].id);
        if (first.status === 201) expect(retry.body.process.id).toBe(first.body.process.id);
      }
      // The cut lost the commit's answer, not the money: what was written is what landed (after: 1, before: 0 unless retried).
      if (where === 'after') expect(ops).toHaveLength(1);
      if (where === 'before' && !key) expect(ops).toHaveLength(first.status === 201 ? 1 : 0);
      expect(A.running()).toBe(true);
    });
  });

  it('(a) the primary crashes and restarts while transfers are in flight on two instances', async () => {
    await rideOut('(a) primary crash and restart', [A, B], async () => {
      primary.crash();
      // During the outage: readiness 503 on both, liveness 200.
      expect(await within(10_000, async () => (await ready(A)) === 503 && (await ready(B)) === 503)).not.toBe(Infinity);
      expect((await A.request('GET', '/api/v1/actuator/health/liveness')).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
      primary.start();
    });
  });

  it('a read-only standby behind the proxy: readiness 503, writes 503 (not 500); back to the primary: ready', async () => {
    const standby = await startCluster({ replicaOf: primary });
    try {
      await waitForReplay(primary, standby);
      proxy.pointTo(standby.port);
      proxy.cutAll();
      expect(await within(10_000, async () => (await ready(A)) === 503)).not.toBe(Infinity);
      const { actor, coin } = payers[1];
      const write = await transfer(A, actor.token, coin.serial, payee.serial, AMOUNT, {
        description: `load-standby-${randomUUID().slice(0, 8)}`,
      });
      expectOnly503s([write]);
      expect(write.status).toBe(503);
      proxy.pointTo(primary.port);
      proxy.cutAll();
      expect(await within(10_000, async () => (await ready(A)) === 200)).not.toBe(Infinity);
      expect(A.running()).toBe(true);
    } finally {
      proxy.pointTo(primary.port);
      await standby.stop();
    }
  });

  it('(c) the replica of READ_DATABASE_URL restarts while searches and transfers run: searches 503 meanwhile, then answer again', async () => {
    const replica = await startCluster({ replicaOf: primary });
    const env = { DATABASE_URL: proxy.url(direct), READ_DATABASE_URL: replica.url('finapi'), TOKEN_CACHE_SECONDS: '60' };
    const [C, D] = [await startServer(env, { allowFaults: true }), await startServer(env, { allowFaults: true })];
    const searches: ApiResponse[] = [];
    let searching = true;
    const search = (server: TestServer) =>
      server.request('POST', '/api/v1/transactions/view', { token: payers[2].actor.token, body: { pageSize: 5 } });
    const searchers = [C, D, C, D].map(async (server) => {
      while (searching) {
        searches.push(await search(server));
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    try {
      await rideOut('(c) replica restart', [C, D], async () => {
        const before = searches.length;
        replica.crash();
        // Searches answer 503 while the replica is down; writes go on on the primary.
        expect(await within(10_000, async () => searches.slice(before).some((a) => a.status === 503))).not.toBe(Infinity);
        expect(await within(10_000, transfers(C))).not.toBe(Infinity);
        replica.start();
      });
      // Searches answer again within 5 s of the replica's return.
      expect(await within(5_000, async () => (await search(C)).status === 200 && (await search(D)).status === 200)).not.toBe(Infinity);
      searching = false;
      await Promise.all(searchers);
      expect(searches.filter((a) => a.status === 200).length).toBeGreaterThan(0);
      expectOnly503s(searches, 200);
      expect(C.running() && D.running()).toBe(true);
    } finally {
      searching = false;
      await Promise.all(searchers);
      await Promise.all([C.stop(), D.stop()]);
      await replica.stop();
    }
  });

  it('(d) the primary crashes and restarts behind PgBouncer in transaction mode (server_login_retry = 1)', async () => {
    const bouncer = await startPgBouncer(direct, { serverLoginRetry: 1 });
    const env = {
      DATABASE_URL: bouncer.url,
      DATABASE_POOL_MODE: 'transaction',
      DATABASE_LISTEN_URL: direct,
      TOKEN_CACHE_SECONDS: '60',
    };
    const [C, D] = [await startServer(env, { allowFaults: true }), await startServer(env, { allowFaults: true })];
    try {
      await rideOut('(d) primary crash and restart behind PgBouncer', [C, D], async () => {
        primary.crash();
        expect(await within(10_000, async () => (await ready(C)) === 503 && (await ready(D)) === 503)).not.toBe(Infinity);
        await new Promise((r) => setTimeout(r, 1000));
        primary.start();
      });
    } finally {
      await Promise.all([C.stop(), D.stop()]);
      await bouncer.stop();
    }
  });

  // Last: the primary does not come back; its synchronous replica is the primary after it.
  it('(b) the primary dies and its synchronous replica is promoted behind the re-pointed proxy, after a window with only the standby reachable: RPO 0', async () => {
    const replica = await startCluster({ replicaOf: primary, settings: ['synchronous_commit = on'] });
    promoted = replica;
    await primary.query(`ALTER SYSTEM SET synchronous_standby_names = '*'`);
    await primary.query('SELECT pg_reload_conf()');
    expect(
      await within(30_000, async () => {
        const rows = await primary.query<{ sync_state: string }>('SELECT sync_state FROM pg_stat_replication');
        return rows.some((r) => r.sync_state === 'sync');
      }),
    ).not.toBe(Infinity);
    await rideOut(
      '(b) failover to the synchronous replica',
      [A, B],
      async () => {
        primary.crash();
        // The proxy is re-pointed before the replica is promoted: for a while only a read-only standby is reachable.
        proxy.pointTo(replica.port);
        proxy.cutAll();
        expect(await within(10_000, async () => (await ready(A)) === 503 && (await ready(B)) === 503)).not.toBe(Infinity);
        const { actor, coin } = payers[1];
        const write = await transfer(A, actor.token, coin.serial, payee.serial, AMOUNT, {
          description: `load-window-${randomUUID().slice(0, 8)}`,
        });
        expectOnly503s([write]);
        expect(write.status).toBe(503);
        await new Promise((r) => setTimeout(r, 1000));
        await replica.query('SELECT pg_promote(true, 60)');
      },
      () => replica,
    );
  });
});
