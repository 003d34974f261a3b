import type { Actor } from './helpers/actors';
import { CoinBody, Dec, expectAnswersReadBack, expectBalancedLedger, fund, expectCoinsMatchAnswers } from './helpers/money';
import { generator } from './helpers/random';
import type { ApiResponse } from './helpers/server';
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261127);
const BATCHES = 5;
const PER_BATCH = 24;

/**
 * Money integrity of the system operations (issue 32), in the style of money-integrity.e2e.spec.ts: a seeded random
 * mix of investments, cash inputs and collects at two cash desks (some for more than a desk holds, some retried in
 * parallel with one Idempotency-Key), gate investments, transfers and top-ups, run in parallel batches by the cfo and an
 * accountant. Afterwards every balance is its entries and what the answers said moved, no client coin is negative,
 * Σ per currency is unchanged (zero: the ledger is closed), each retried key took effect once, and each system
 * operation is in the action log.
 */
describe(`money integrity: system operations in parallel (seed ${SEED}; INTEGRITY_SEED=… to replay)`, () => {
  const world = moneyWorld();
  const random = generator(SEED);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const amount = (max = 3000) => ((Math.floor(random() * max) + 1) / 100).toFixed(2);

  let customers: { actor: Actor; coin: CoinBody }[];
  let staff: Actor[];
  let desks: { id: string; coins: { serial: string }[] }[];
  let gateSettlement: string;
  const processed = new Map<string, { transactions: { from: { serial: string }; to: { serial: string }; amount: string }[] }>();
  const outcomes = new Map<string, number>();
  const answers: unknown[] = [];
  /** The ids of the system operations answered. */
  const systemOperations = new Set<string>();
  /** Per Idempotency-Key retried, the operation ids its answers named. */
  const retried = new Map<string, Set<string>>();
  let keys = 0;

  const note = (what: string, response: ApiResponse) => {
    outcomes.set(`${what} ${response.status}`, (outcomes.get(`${what} ${response.status}`) ?? 0) + 1);
    const process = response.body?.process;
    if (!process) return response;
    if (response.status < 300 && process.status === 'processed') processed.set(process.id, process);
    if (response.status < 300) answers.push(process);
    return response;
  };

  beforeAll(async () => {
    customers = [];
    for (let i = 0; i < 4; i++) {
      const actor = await world.user({ role: i === 3 ? 'merchant' : 'individual' });
      customers.push({ actor, coin: await world.coin(actor, '400.00') });
    }
    staff = [await world.user({ role: 'cfo' }), await world.user({ role: 'accountant' })];
    desks = [];
    for (const name of ['North desk', 'South desk']) {
      const created = await world.server.request('POST', '/api/v1/cash-desks', {
        token: world.admin,
        body: { name, issuerIds: [world.issuer.id] },
      });
      desks.push(created.body.cashDesk);
      await fund(world.server, world.admin, created.body.cashDesk.coins[0].serial, '200.00');
    }
    const provider = await world.server.request('POST', '/api/v1/gate-providers', {
      token: world.admin,
      body: { name: 'Integrity telecom', type: 'billing', settings: { secret: 'simulated-provider-secret-0001' } },
    });
    await world.server.request('POST', '/api/v1/gate/products', {
      token: world.admin,
      body: {
        gateProviderId: provider.body.gateProvider.id,
        name: 'Integrity mobile',
        currency: world.currency.code,
        minAmount: '1.00',
        maxAmount: '500.00',
        fields: [{ name: 'phone', type: 'string', required: true }],
      },
    });
    const coins = await world.server.request('GET', `/api/v1/organizations/${provider.body.gateProvider.id}/provider-coins`, {
      token: world.admin,
    });
    gateSettlement = coins.body.coins[0].serial;
  });

  const move = (path: string, body: Record<string, unknown>, key: string, by = pick(staff)) =>
    world.server.request('POST', `/api/v1${path}`, { token: by.token, headers: { 'Idempotency-Key': key }, body });
  const system = async (what: string, path: string, body: Record<string, unknown>) => {
    const answer = note(what, await move(path, body, `s-${SEED}-${keys++}`));
    if (answer.status === 201) systemOperations.add(answer.body.process.id);
  };
  const deskCoin = () => pick(desks).coins[0].serial;

  const actions: Record<string, () => Promise<unknown>> = {
    investment: () => system('investment', '/investments', { amount: amount(), serial: deskCoin(), fullName: 'Investor' }),
    input: () => system('input', '/inputs', { amount: amount(), serial: deskCoin(), fullName: 'Courier' }),
    collect: () => system('collect', '/collects', { amount: amount(20000), serial: deskCoin(), fullName: 'Collector' }),
    overcollect: () => system('collect', '/collects', { amount: '100000.00', serial: deskCoin(), fullName: 'Collector' }),
    gateInvestment: () =>
      system('gate investment', '/gate-investments', { amount: amount(), serial: gateSettlement, fullName: 'Treasurer' }),
    async retried() {
      const key = `r-${SEED}-${keys++}`;
      const [path, body] = pick([
        ['/collects', { amount: amount(6000), serial: deskCoin(), fullName: 'Collector' }],
        ['/investments', { amount: amount(), serial: deskCoin(), fullName: 'Investor' }],
      ] as const);
      // A key is its user's: the retries are one staff member's.
      const by = pick(staff);
      const all = await Promise.all([move(path, body, key, by), move(path, body, key, by), move(path, body, key, by)]);
      for (const a of all) {
        note('retried', a);
        if (a.status === 201) {
          retried.set(key, (retried.get(key) ?? new Set()).add(a.body.process.id));
          systemOperations.add(a.body.process.id);
        }
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
    for (const what of [
      'investment 201',
      'input 201',
      'collect 201',
      'collect 409',
      'gate investment 201',
      'retried 201',
      'transfer 201',
    ]) {
      expect({ what, context, ran: (outcomes.get(what) ?? 0) > 0 }).toEqual({ what, context, ran: true });
    }
    // One Idempotency-Key, one operation, however many answered it.
    expect(retried.size).toBeGreaterThan(0);
    for (const [key, ids] of retried) expect({ key, operations: ids.size }).toEqual({ key, operations: 1 });
    const db = world.raw.db;
    const currency = world.currency.id;
    const [closed] = (await db.query(`SELECT COALESCE(sum(balance), 0)::text AS total FROM coins WHERE currency_id = $1`, [currency])).rows;
    expect({ context, total: new Dec(closed.total).toFixed(2) }).toEqual({ context, total: '0.00' });
    await expectCoinsMatchAnswers(db, processed.values(), context, currency);
    // Every operation a system operation answered is in the action log, under who posted it.
    const logged = (await db.query(`SELECT details->>'operationId' AS id FROM user_actions WHERE action = 'money_moved'`)).rows.map(
      (r: { id: string }) => r.id,
    );
    for (const id of systemOperations) expect({ id, logged: logged.includes(id) }).toEqual({ id, logged: true });
    await expectBalancedLedger(world.server, world.admin);
    expect(await expectAnswersReadBack(world.server, world.admin, answers)).toBeGreaterThan(30);
  });
});
