import type { Actor } from './helpers/actors';
import { aFee, percent } from './helpers/commissions';
import { CoinBody, Dec, expectAnswersReadBack, expectBalancedLedger, expectCoinsMatchAnswers } from './helpers/money';
import { generator } from './helpers/random';
import type { ApiResponse } from './helpers/server';
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261126);
const BATCHES = 5;
const PER_BATCH = 24;

/**
 * Money integrity of customers' withdrawals at cash desks (`POST /cash-desk-withdrawals/{id}`), in the style of
 * money-integrity.e2e.spec.ts: a seeded random mix of withdrawals at two desks (some with a fee, some retried in
 * parallel with one Idempotency-Key, some for more than the coin holds), transfers and top-ups, run in parallel
 * batches. Afterwards every balance is its entries and what the answers said moved, nothing is negative, Σ per
 * currency is unchanged (zero: the ledger is closed), and each retried key took effect once.
 */
describe(`money integrity: cash-desk withdrawals in parallel (seed ${SEED}; INTEGRITY_SEED=… to replay)`, () => {
  const world = moneyWorld();
  const random = generator(SEED);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const amount = (max = 3000) => ((Math.floor(random() * max) + 1) / 100).toFixed(2);

  let customers: { actor: Actor; coin: CoinBody }[];
  let desks: { id: string; coins: { serial: string }[] }[];
  const processed = new Map<string, { transactions: { from: { serial: string }; to: { serial: string }; amount: string }[] }>();
  const outcomes = new Map<string, number>();
  const answers: unknown[] = [];
  /** Per Idempotency-Key retried, the operation ids its answers named. */
  const retried = new Map<string, Set<string>>();
  let keys = 0;

  const note = (what: string, response: ApiResponse) => {
    outcomes.set(`${what} ${response.status}`, (outcomes.get(`${what} ${response.status}`) ?? 0) + 1);
    if (!response.body?.process) return response;
    // The withdrawal's answer adds what the family's success screen reads and its record; the rest is the operation.
    const { cashAmount: _a, clientCoin: _c, cashDeskId: _d, receiverName: _r, transaction, ...process } = response.body.process;
    // A withdrawal's record is its operation as the history lists it (issue 45); other notes carry none.
    if (response.status < 300 && transaction) answers.push(transaction[0]);
    if (response.status < 300 && process.status === 'processed') processed.set(process.id, process);
    if (response.status < 300) answers.push(process);
    return response;
  };

  beforeAll(async () => {
    customers = [];
    for (let i = 0; i < 5; i++) {
      const actor = await world.user({ role: i === 4 ? 'merchant' : 'individual' });
      customers.push({ actor, coin: await world.coin(actor, '400.00') });
    }
    for (const [i, payer] of [
      [0, 'sender'],
      [1, 'recipient'],
    ] as const) {
      await aFee(world.server, world.admin, {
        organizationId: customers[i].actor.organizationId,
        issuerId: world.issuer.id,
        flow: 'cash_out',
        conditions: percent(i === 0 ? '2' : '1.5'),
        payer,
      });
    }
    desks = [];
    for (const name of ['North desk', 'South desk']) {
      const created = await world.server.request('POST', '/api/v1/cash-desks', {
        token: world.admin,
        body: { name, issuerIds: [world.issuer.id] },
      });
      desks.push(created.body.cashDesk);
    }
  });

  const withdraw = (actor: Actor, deskId: string, body: Record<string, unknown>, key: string) =>
    world.server.request('POST', `/api/v1/cash-desk-withdrawals/${deskId}`, {
      token: actor.token,
      headers: { 'Idempotency-Key': key },
      body,
    });

  const actions: Record<string, () => Promise<unknown>> = {
    async withdrawal() {
      const { actor, coin } = pick(customers);
      const body = { coin: coin.serial, amount: amount(4000), receiverName: 'Receiver' };
      note('withdrawal', await withdraw(actor, pick(desks).id, body, `w-${SEED}-${keys++}`));
    },
    async overdraft() {
      const { actor, coin } = pick(customers);
      const body = { coin: coin.serial, amount: '100000.00', receiverName: 'Receiver' };
      note('withdrawal', await withdraw(actor, pick(desks).id, body, `o-${SEED}-${keys++}`));
    },
    async retriedWithdrawal() {
      const { actor, coin } = pick(customers);
      const key = `r-${SEED}-${keys++}`;
      const desk = pick(desks).id;
      const body = { coin: coin.serial, amount: amount(2000), receiverName: 'Receiver' };
      const all = await Promise.all([withdraw(actor, desk, body, key), withdraw(actor, desk, body, key), withdraw(actor, desk, body, key)]);
      for (const a of all) {
        note('retried withdrawal', a);
        if (a.status === 201) retried.set(key, (retried.get(key) ?? new Set()).add(a.body.process.id));
      }
    },
    async transfer() {
      const from = pick(customers);
      const to = pick(customers.filter((c) => c !== from));
      note(
        'transfer',
        await world.server.request('POST', '/api/v1/transfers', {
          token: from.actor.token,
          headers: { 'Idempotency-Key': `t-${SEED}-${keys++}` },
          body: { paymentTool: { type: 'COIN', srcValue: from.coin.serial, destValue: to.coin.serial }, amount: amount(3000) },
        }),
      );
    },
    async topUp() {
      const { coin } = pick(customers);
      note(
        'top-up',
        await world.server.request('POST', '/api/v1/bank-top-ups', {
          token: world.admin,
          body: { coinSerial: coin.serial, amount: amount() },
        }),
      );
    },
  };

  it('keeps every balance equal to its entries and to what the answers said moved; a retried key moves money once', async () => {
    // The customers' opening balances moved too (from the issuer's bank-settlement coin).
    const opening = await world.raw.db.query(`SELECT id FROM operations`);
    for (const { id } of opening.rows) {
      const read = await world.server.request('GET', `/api/v1/transactions/${id}`, { token: world.admin });
      if (read.status === 200 && read.body.process?.status === 'processed') processed.set(id, read.body.process);
    }
    const kinds = Object.keys(actions);
    for (let batch = 0; batch < BATCHES; batch++) {
      await Promise.all(Array.from({ length: PER_BATCH }, () => actions[pick(kinds)]()));
    }
    const context = `seed ${SEED}, outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`;
    for (const what of ['withdrawal 201', 'withdrawal 409', 'retried withdrawal 201', 'transfer 201']) {
      expect({ what, context, ran: (outcomes.get(what) ?? 0) > 0 }).toEqual({ what, context, ran: true });
    }
    // One Idempotency-Key, one operation, however many answered it.
    expect(retried.size).toBeGreaterThan(0);
    for (const [key, ids] of retried) expect({ key, operations: ids.size }).toEqual({ key, operations: 1 });
    const db = world.raw.db;
    const currency = world.currency.id;
    const [closed] = (await db.query(`SELECT COALESCE(sum(balance), 0)::text AS total FROM coins WHERE currency_id = $1`, [currency])).rows;
    expect({ context, total: new Dec(closed.total).toFixed(2) }).toEqual({ context, total: '0.00' });
    const coins = await expectCoinsMatchAnswers(db, processed.values(), context, currency);
    // What the desks received is what the withdrawals answered as the desks' share.
    for (const desk of desks) {
      const serial = desk.coins[0].serial;
      const got = coins.find((c) => c.serial === serial)!;
      expect(new Dec(got.balance).gt(0)).toBe(true);
    }
    await expectBalancedLedger(world.server, world.admin);
    expect(await expectAnswersReadBack(world.server, world.admin, answers)).toBeGreaterThan(30);
  });
});
