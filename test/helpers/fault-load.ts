import { randomUUID } from 'node:crypto';
import { adminToken, aUser, Actor } from './actors';
import { aCoin, aCurrency, anIssuer, CoinBody, Dec, fund, transfer } from './money';
import { ApiResponse, TestServer, within } from './server';

/**
 * Load and checks for the database fault suites (issue 44): clients sending transfers to several instances, keyed ones
 * retried with their key, and what every fault must cost and no more.
 */

const CLIENTS = 8;
export const AMOUNT = '0.01';
const FUNDS = '1000.00';

/** SQL on the database holding the service's data (the primary, or the one promoted). */
export type Query = <T = any>(sql: string) => Promise<T[]>;

export interface Sent {
  /** Each request carries a description of its own: its operation, if it was written, is found by it. */
  description: string;
  key?: string;
  answers: ApiResponse[];
}

export interface Payer {
  actor: Actor;
  coin: CoinBody;
}

/** Transfers from many clients to the instances until stopped; keyed ones retried with their key until answered. */
export class Load {
  readonly sent: Sent[] = [];
  private running = true;
  private readonly loops: Promise<void>[] = [];
  private n = 0;
  /** Descriptions are unique across loads: `load-<run>-<client>-<n>`. */
  private readonly run = randomUUID().slice(0, 8);

  constructor(
    private readonly instances: TestServer[],
    private readonly payers: Payer[],
    private readonly payee: CoinBody,
  ) {}

  start(): void {
    for (let c = 0; c < CLIENTS; c++) this.loops.push(this.client(c));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

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
        if (!sent.key || answer.status === 201 || !this.running || attempt > 600) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      if (sent.answers.at(-1)?.status !== 201) await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Only `ok`s, and 503 exception.unavailable with Retry-After: no other 5xx, no refused or reset connection. */
export function expectOnly503s(answers: ApiResponse[], ok = 201): void {
  const other = answers.filter((a) => a.status !== ok && a.status !== 503).map((a) => `${a.status} ${a.text.slice(0, 200)}`);
  expect(other).toEqual([]);
  for (const a of answers.filter((x) => x.status === 503)) {
    expect(a.body?.code).toBe('exception.unavailable');
    expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
  }
}

export const ready = async (server: TestServer): Promise<number> =>
  (await server.request('GET', '/api/v1/actuator/health/readiness')).status;

/**
 * The money a fault suite moves: funded payers and a payee, created through `server`, and the checks of what every
 * fault costs. `costs` collects what each cost, as measured, printed after the suite.
 */
export class FaultRig {
  readonly costs: string[] = [];

  private constructor(
    readonly admin: string,
    readonly payers: Payer[],
    readonly payee: CoinBody,
  ) {}

  static async create(server: TestServer): Promise<FaultRig> {
    const admin = await adminToken(server);
    const currency = await aCurrency(server, admin);
    const issuer = await anIssuer(server, admin, currency.code);
    const payers: Payer[] = [];
    for (let i = 0; i < 4; i++) {
      const actor = await aUser(server, admin);
      const coin = await aCoin(server, actor.token, issuer.id);
      await fund(server, admin, coin.serial, FUNDS);
      payers.push({ actor, coin });
    }
    const owner = await aUser(server, admin);
    return new FaultRig(admin, payers, await aCoin(server, owner.token, issuer.id));
  }

  /** The operations written per request description. */
  async written(query: Query): Promise<Map<string, { id: string }[]>> {
    const rows = await query<{ description: string; id: string }>(
      `SELECT description, id FROM operations WHERE description LIKE 'load-%' OR description LIKE 'cut-%'`,
    );
    const map = new Map<string, { id: string }[]>();
    for (const row of rows) map.set(row.description, [...(map.get(row.description) ?? []), { id: row.id }]);
    return map;
  }

  /** Every acknowledged transfer once, with the operation it answered; none written twice; balances exact. */
  async expectExactlyOnce(load: Sent[], query: Query, server: TestServer): Promise<void> {
    const ops = await this.written(query);
    for (const [description, list] of ops) expect({ description, times: list.length }).toEqual({ description, times: 1 });
    for (const sent of load) {
      const acknowledged = sent.answers.filter((a) => a.status === 201);
      if (!acknowledged.length) continue;
      const op = ops.get(sent.description);
      expect({ description: sent.description, written: op?.length ?? 0 }).toEqual({ description: sent.description, written: 1 });
      for (const a of acknowledged) expect(a.body.process.id).toBe(op![0].id);
    }
    const check = await server.request('GET', '/api/v1/actuator/ledger-check', { token: this.admin });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ status: 'ok', balanced: true });
    const serials = [this.payee.serial, ...this.payers.map((p) => p.coin.serial)];
    const [{ total }] = await query<{ total: string }>(
      `SELECT sum(balance)::text AS total FROM coins WHERE serial = ANY('{${serials.join(',')}}'::bigint[])`,
    );
    expect(new Dec(total).toFixed(2)).toBe(new Dec(FUNDS).times(this.payers.length).toFixed(2));
  }

  /**
   * A transfer of its own on `server`: whether it succeeds now. An instance that cannot be reached fails the fault's
   * test at once, saying whether its process is still running and what it last logged.
   */
  transfers(server: TestServer): () => Promise<boolean> {
    return async () => {
      const { actor, coin } = this.payers[3];
      try {
        const r = await transfer(server, actor.token, coin.serial, this.payee.serial, AMOUNT, {
          description: `load-probe-${randomUUID().slice(0, 8)}`,
        });
        return r.status === 201;
      } catch (error) {
        const state = server.running() ? 'is running but did not answer' : 'has exited';
        throw new Error(
          `The instance at ${server.url} ${state} (${String(error)}); its last lines:\n${server.logs.slice(-40).join('\n')}`,
          {
            cause: error,
          },
        );
      }
    };
  }

  /**
   * Runs `fault` under load on `instances` and asserts what every fault must cost and no more: no process exits; only
   * 503s; transfers back on every instance within `backWithinMs` of the database taking writes (when `fault` resolves);
   * readiness 200 after; a logout on one instance refused on the other within 3 s; every acknowledged transfer once
   * (read by `query` on the database after the fault); balances exact. Answers how long the transfers took to return.
   */
  async rideOut(name: string, instances: TestServer[], fault: () => Promise<void>, query: Query, backWithinMs = 5_000): Promise<number> {
    const load = new Load(instances, this.payers, this.payee);
    const user = await aUser(instances[0], this.admin);
    const logged = instances.map((server) => server.logs.length);
    load.start();
    try {
      // Transfers flow on every instance before the fault.
      expect(await within(30_000, async () => load.answers().filter((a) => a.status === 201).length >= 20)).not.toBe(Infinity);
      const faultAt = Date.now();
      await fault();
      const upAt = Date.now();
      for (const server of instances) expect(await within(60_000, this.transfers(server))).not.toBe(Infinity);
      const back = Date.now() - upAt;
      expect(back).toBeLessThan(backWithinMs);
      for (const server of instances) expect(await within(5_000, async () => (await ready(server)) === 200)).not.toBe(Infinity);
      // A logout on one instance is refused on the other within 3 s (the LISTEN connection came back).
      const [first, second = first] = instances;
      const profile = (server: TestServer) => server.request('GET', '/api/v1/profiles/my', { token: user.token });
      expect((await profile(second)).status).toBe(200);
      expect((await first.request('DELETE', '/api/v1/authorization', { token: user.token })).status).toBe(200);
      const loggedOutAt = Date.now();
      expect(await within(10_000, async () => (await profile(second)).status === 401)).not.toBe(Infinity);
      const heard = Date.now() - loggedOutAt;
      expect(heard).toBeLessThan(3_000);
      await load.stop();
      for (const server of instances) expect(server.running()).toBe(true);
      const answers = load.answers();
      expectOnly503s(answers);
      // The outage is said once per instance when it starts and once when it ends, as warnings: no error, no stack per request.
      for (const [i, server] of instances.entries()) {
        const lines = server.logs.slice(logged[i]);
        expect(lines.filter((line) => line.startsWith('{"level":50') || line.startsWith('{"level":60'))).toEqual([]);
        // At most one flap (the outage said again once after it seemed over); the failure shows what was said.
        const said = lines.filter((line) => line.includes(' is unavailable (') || line.includes(' is back after '));
        expect({
          instance: i,
          unavailable: said.filter((line) => line.includes(' is unavailable (')).length <= 2 ? 'at most twice' : said,
        }).toEqual({
          instance: i,
          unavailable: 'at most twice',
        });
        expect(lines.filter((line) => line.includes('"stack"') || line.includes('    at ')).length).toBe(0);
      }
      await this.expectExactlyOnce(load.sent, query, instances[0]);
      this.costs.push(
        `${name}: ${answers.filter((a) => a.status === 503).length} × 503 of ${answers.length} answers; transfers back ${back} ms after ` +
          `the database took writes (${upAt - faultAt} ms from the fault to then); a logout heard in ${heard} ms`,
      );
      return back;
    } finally {
      await load.stop();
    }
  }
}
