import { createHmac } from 'node:crypto';
import type { Pool } from 'pg';
import type { Actor } from './actors';
import { CoinBody, Dec } from './money';
import { generator } from './random';
import type { ApiResponse, TestServer } from './server';
import type { MoneyWorld } from './world';

/** An operation as an answer states it: what its legs moved. */
export interface AnsweredOperation {
  id: string;
  status: string;
  transactions: { from: { serial: string }; to: { serial: string }; amount: string }[];
}

/**
 * What a money-integrity suite keeps of a seeded random mix run in parallel batches: the seed's draws, the outcome
 * of each kind of request, the operations answered (settled ones by id, for `expectCoinsMatchAnswers`) and, per
 * Idempotency-Key sent several times at once, the operations its answers named. One per suite, made in its describe.
 */
export function integrityMix(world: MoneyWorld, options: { seed: number; batches: number; perBatch: number; amountMax?: number }) {
  const { seed } = options;
  const random = generator(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const amount = (max = options.amountMax ?? 3000) => ((Math.floor(random() * max) + 1) / 100).toFixed(2);
  /** Every operation answered as processed, by id (a settled request is answered again with all its legs). */
  const processed = new Map<string, AnsweredOperation>();
  const outcomes = new Map<string, number>();
  /** Every operation a request answered, in any status. */
  const answers: unknown[] = [];
  /** Per Idempotency-Key retried, the operation ids its answers named. */
  const retried = new Map<string, Set<string>>();

  let keys = 0;
  /** A new Idempotency-Key of this seed: `prefix-seed-n`. */
  const key = (prefix: string) => `${prefix}-${seed}-${keys++}`;
  /** Counts one outcome (`what status`, or as the suite names it). */
  const tally = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  /** Counts the answer's outcome and keeps the operation it answered (`process`: the answer's, unless given). */
  const note = (what: string, response: ApiResponse, process: AnsweredOperation | undefined = response.body?.process) => {
    tally(`${what} ${response.status}`);
    if (!process || response.status >= 300) return response;
    if (process.status === 'processed') processed.set(process.id, process);
    answers.push(process);
    return response;
  };
  /** The seed and the outcomes, named in every failure. */
  const context = () => `seed ${seed}, outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`;

  return {
    seed,
    random,
    pick,
    amount,
    processed,
    outcomes,
    answers,
    retried,
    key,
    tally,
    note,
    context,
    /** Sends one request three times at once under `retryKey`, notes each answer (by `noted`), and answers them. */
    async thrice(
      what: string,
      retryKey: string,
      send: () => Promise<ApiResponse>,
      noted: (what: string, response: ApiResponse) => unknown = note,
    ) {
      const all = await Promise.all([send(), send(), send()]);
      for (const a of all) {
        noted(what, a);
        if (a.status === 201) retried.set(retryKey, (retried.get(retryKey) ?? new Set()).add(a.body.process.id));
      }
      return all;
    },
    /** A keyed transfer between two of `customers`, noted as `transfer`. */
    async transfer(customers: { actor: Actor; coin: CoinBody }[], max = 3000) {
      const from = pick(customers);
      const to = pick(customers.filter((c) => c !== from));
      return note(
        'transfer',
        await world.server.request('POST', '/api/v1/transfers', {
          token: from.actor.token,
          headers: { 'Idempotency-Key': key('t') },
          body: { paymentTool: { type: 'COIN', srcValue: from.coin.serial, destValue: to.coin.serial }, amount: amount(max) },
        }),
      );
    },
    /** A direct bank top-up of one of `customers`, noted as `top-up`. */
    async topUp(customers: { coin: CoinBody }[], max?: number) {
      const { coin } = pick(customers);
      return note(
        'top-up',
        await world.server.request('POST', '/api/v1/bank-top-ups', {
          token: world.admin,
          body: { coinSerial: coin.serial, amount: amount(max) },
        }),
      );
    },
    /** Keeps the operations that are already settled before the mix (the opening balances' top-ups). */
    async readOpening() {
      const opening = await world.raw.db.query(`SELECT id FROM operations`);
      for (const { id } of opening.rows) {
        const read = await world.server.request('GET', `/api/v1/transactions/${id}`, { token: world.admin });
        if (read.status === 200 && read.body.process?.status === 'processed') processed.set(id, read.body.process);
      }
    },
    /** Runs the batches: in each, `perBatch` actions drawn from `actions`, all at once. */
    async run(actions: Record<string, () => Promise<unknown>>) {
      const kinds = Object.keys(actions);
      for (let batch = 0; batch < options.batches; batch++) {
        await Promise.all(Array.from({ length: options.perBatch }, () => actions[pick(kinds)]()));
      }
    },
    /** Asserts each outcome happened at least once. */
    expectRan(whats: string[]) {
      const at = context();
      for (const what of whats) expect({ what, context: at, ran: (outcomes.get(what) ?? 0) > 0 }).toEqual({ what, context: at, ran: true });
    },
    /** One Idempotency-Key, one operation, however many answered it; and some key was retried. */
    expectRetriedOnce() {
      expect(retried.size).toBeGreaterThan(0);
      for (const [k, ids] of retried) expect({ key: k, operations: ids.size }).toEqual({ key: k, operations: 1 });
    },
    /** The ledger of the world's currency is closed: client and system balances sum to zero. */
    async expectClosed() {
      const at = context();
      const [closed] = (
        await world.raw.db.query(`SELECT COALESCE(sum(balance), 0)::text AS total FROM coins WHERE currency_id = $1`, [world.currency.id])
      ).rows;
      expect({ context: at, total: new Dec(closed.total).toFixed(2) }).toEqual({ context: at, total: '0.00' });
    },
  };
}

/**
 * Reads the gate transactions `started` until every one is finished (processed or failed), sending each one still
 * waiting for its provider the provider's signed callback twice (each answered 200; `calledBack` hears each).
 * Answers the transactions as last read.
 */
export async function finishGateTransactions(
  server: TestServer,
  started: { id: string; token: string }[],
  secret: string,
  calledBack: () => void = () => undefined,
): Promise<any[]> {
  const read = () =>
    Promise.all(
      started.map(async (s) => (await server.request('GET', `/api/v1/gate/transactions/${s.id}`, { token: s.token })).body.transaction),
    );
  for (let round = 0; round < 100; round++) {
    const all = await read();
    for (const t of all.filter((x) => x.status === 'pending' && x.providerReference)) {
      const body = JSON.stringify({ reference: t.providerReference, status: 'processed' });
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      for (let i = 0; i < 2; i++) {
        const answer = await server.request('POST', `/api/v1/gate/callbacks/${t.gateProviderId}`, {
          rawBody: body,
          headers: { 'content-type': 'application/json', 'x-gate-signature': signature },
        });
        expect(answer.status).toBe(200);
      }
      calledBack();
    }
    if (all.every((t) => t.status === 'processed' || t.status === 'failure')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return read();
}

/** The entries of operation `operationId`, and their sum on coin `serial` (negative: taken from it). */
export async function movedOn(db: Pool, operationId: string, serial: string) {
  const entries = (
    await db.query(`SELECT coin_serial::text AS coin, amount::text AS amount FROM ledger_entries WHERE operation_id = $1`, [operationId])
  ).rows;
  return { entries, moved: entries.filter((e) => e.coin === serial).reduce((s, e) => s.plus(e.amount), new Dec(0)) };
}

/** A coin as the database holds it, with the sums of its entries and of its open holds (decimal text). */
export interface CoinSums {
  serial: string;
  type: string;
  balance: string;
  held: string;
  entries: string;
  holds: string;
}

/** Every coin of the currency with the sums of its entries and of its open holds. */
export async function coinSums(db: Pool, currencyId: string): Promise<CoinSums[]> {
  return (
    await db.query<CoinSums>(
      `SELECT c.serial::text AS serial, c.type, c.balance::text AS balance, c.held::text AS held,
              COALESCE((SELECT sum(amount) FROM ledger_entries e WHERE e.coin_serial = c.serial), 0)::text AS entries,
              COALESCE((SELECT sum(amount) FROM holds h WHERE h.coin_serial = c.serial AND h.status = 'open'), 0)::text AS holds
         FROM coins c WHERE c.currency_id = $1`,
      [currencyId],
    )
  ).rows;
}

/**
 * Expects every coin of the currency to hold the sum of its entries with nothing held (no open hold), and all their
 * balances to sum to zero; `context` is named in each failure. Answers the coins (serial, type, balance).
 */
export async function expectCoinsEqualEntries(db: Pool, currencyId: string, context?: unknown): Promise<CoinSums[]> {
  const coins = await coinSums(db, currencyId);
  let total = new Dec(0);
  for (const c of coins) {
    total = total.plus(c.balance);
    const row = { context, serial: c.serial };
    expect({
      ...row,
      entries: new Dec(c.entries).eq(c.balance),
      held: new Dec(c.held).toFixed(2),
      holds: new Dec(c.holds).toFixed(2),
    }).toEqual({ ...row, entries: true, held: '0.00', holds: '0.00' });
  }
  expect({ context, total: total.toFixed(2) }).toEqual({ context, total: '0.00' });
  return coins;
}

/** A cash desk as its creation answers it: its coins, one per issuer. */
export interface CashDeskBody {
  id: string;
  coins: { serial: string }[];
}

/** Two cash desks of the world's issuer (North and South), made by the administrator. */
export async function twoCashDesks(world: MoneyWorld): Promise<CashDeskBody[]> {
  const desks: CashDeskBody[] = [];
  for (const name of ['North desk', 'South desk']) {
    const created = await world.server.request('POST', '/api/v1/cash-desks', {
      token: world.admin,
      body: { name, issuerIds: [world.issuer.id] },
    });
    expect(created.status).toBe(201);
    desks.push(created.body.cashDesk);
  }
  return desks;
}
