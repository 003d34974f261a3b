import { randomUUID } from 'node:crypto';
import { adminToken, aUser, Actor } from './helpers/actors';
import { aCoin, aCurrency, anIssuer, CoinBody, Dec, fund, transfer } from './helpers/money';
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
      const sent: Sent = { description: `load-${c}-${this.n++}`, key: keyed ? randomUUID() : undefined, answers: [] };
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
  });

  /** The operations written per request description, from the database itself. */
  const written = async (): Promise<Map<string, { id: string }[]>> => {
    const rows = await primary.query<{ description: string; id: string }>(
      `SELECT description, id FROM operations WHERE description LIKE 'load-%' OR description LIKE 'cut-%'`,
      'finapi',
    );
    const map = new Map<string, { id: string }[]>();
    for (const row of rows) map.set(row.description, [...(map.get(row.description) ?? []), { id: row.id }]);
    return map;
  };

  /** Every acknowledged transfer once, with the operation it answered; none written twice; balances exact. */
  const expectExactlyOnce = async (load: Sent[]) => {
    const ops = await written();
    for (const [description, list] of ops) expect({ description, times: list.length }).toEqual({ description, times: 1 });
    for (const sent of load) {
      const acknowledged = sent.answers.filter((a) => a.status === 201);
      if (!acknowledged.length) continue;
      const op = ops.get(sent.description);
      expect({ description: sent.description, written: op?.length ?? 0 }).toEqual({ description: sent.description, written: 1 });
      for (const a of acknowledged) expect(a.body.process.id).toBe(op![0].id);
    }
    const check = await A.request('GET', '/api/v1/actuator/ledger-check', { token: admin });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ status: 'ok' });
    const [{ total }] = await primary.query<{ total: string }>(
      `SELECT sum(balance)::text AS total FROM coins WHERE serial = ANY('{${[payee.serial, ...payers.map((p) => p.coin.serial)].join(',')}}'::bigint[])`,
      'finapi',
    );
    expect(new Dec(total).toFixed(2)).toBe(new Dec(FUNDS).times(payers.length).toFixed(2));
  };

  /** Only 201s, and 503 exception.unavailable with Retry-After: no other 5xx, no refused or reset connection. */
  const expectOnly503s = (answers: ApiResponse[]) => {
    const other = answers.filter((a) => a.status !== 201 && a.status !== 503).map((a) => `${a.status} ${a.text.slice(0, 200)}`);
    expect(other).toEqual([]);
    for (const a of answers.filter((x) => x.status === 503)) {
      expect(a.body?.code).toBe('exception.unavailable');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  };

  const ready = async (server: TestServer) => (await server.request('GET', '/api/v1/actuator/health/readiness')).status;

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

  it('(a) the primary crashes and restarts while transfers are in flight: no process exits, only 503s, back within 5 s, every acknowledged transfer once', async () => {
    const load = new Load([A, B], payers, payee);
    const user = await aUser(A, admin);
    load.start();
    // Transfers flow on both instances before the fault.
    expect(await within(30_000, async () => load.answers().filter((a) => a.status === 201).length >= 20)).not.toBe(Infinity);
    const before = load.answers().length;
    primary.crash();
    // During the outage: readiness 503 on both, liveness 200.
    expect(await within(10_000, async () => (await ready(A)) === 503 && (await ready(B)) === 503)).not.toBe(Infinity);
    expect((await A.request('GET', '/api/v1/actuator/health/liveness')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2000));
    primary.start();
    const upAt = Date.now();
    // Transfers succeed again on both instances within 5 s of the database taking writes.
    const okSince = (server: TestServer) => async () => {
      const r = await transfer(server, payers[3].actor.token, payers[3].coin.serial, payee.serial, AMOUNT, {
        description: `load-probe-${randomUUID().slice(0, 8)}`,
      });
      return r.status === 201;
    };
    const backA = await within(30_000, okSince(A));
    const backB = await within(30_000, okSince(B));
    expect(Date.now() - upAt).toBeLessThan(5_000 + 1000);
    expect([backA, backB]).not.toContain(Infinity);
    expect(await ready(A)).toBe(200);
    expect(await ready(B)).toBe(200);
    // A logout on one instance is refused on the other within 3 s (the LISTEN connection came back).
    const token = user.token;
    expect((await B.request('GET', '/api/v1/profiles/my', { token })).status).toBe(200);
    expect((await A.request('DELETE', '/api/v1/authorization', { token })).status).toBe(200);
    const refusedAt = Date.now();
    expect(await within(10_000, async () => (await B.request('GET', '/api/v1/profiles/my', { token })).status === 401)).not.toBe(Infinity);
    expect(Date.now() - refusedAt).toBeLessThan(3_000);
    await new Promise((r) => setTimeout(r, 500));
    await load.stop();
    expect(A.running()).toBe(true);
    expect(B.running()).toBe(true);
    expect(load.answers().length).toBeGreaterThan(before);
    expectOnly503s(load.answers());
    await expectExactlyOnce(load.sent);
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
});
