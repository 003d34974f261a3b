import type { Actor } from './helpers/actors';
import { aContract, assignContract } from './helpers/commissions';
import { aRate, fundReserve, sumsPerCurrency } from './helpers/exchange';
import {
  aCoin,
  aCurrency,
  anIssuer,
  CoinBody,
  Dec,
  expectAnswersReadBack,
  expectBalancedLedger,
  expectCoinsMatchAnswers,
} from './helpers/money';
import { generator } from './helpers/random';
import type { ApiResponse } from './helpers/server';
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261127);
const BATCHES = 5;
const PER_BATCH = 24;

/**
 * Money integrity of the family's commission settings (issue 32), in the style of money-integrity.e2e.spec.ts: fees
 * set the family's way — a transfer rule whose fee both sides share (`direction: SHARED`), one the recipient pays
 * (`IN`), and a multi-currency exchange profile with a shared rule — priced on a seeded random mix of transfers (some
 * retried in parallel with one Idempotency-Key, some for more than the coin holds), exchanges between the two
 * currencies and top-ups, run in parallel batches. Afterwards every balance is its entries and what the answers said
 * moved, nothing is negative, Σ per currency is unchanged (zero: the ledger is closed), and each retried key took
 * effect once.
 */
describe(`money integrity: shared and multi-currency commissions in parallel (seed ${SEED}; INTEGRITY_SEED=… to replay)`, () => {
  const world = moneyWorld();
  const random = generator(SEED);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const amount = (max = 3000) => ((Math.floor(random() * max) + 1) / 100).toFixed(2);

  let customers: { actor: Actor; coin: CoinBody; dollars: CoinBody }[];
  const processed = new Map<string, { transactions: { from: { serial: string }; to: { serial: string }; amount: string }[] }>();
  const outcomes = new Map<string, number>();
  const answers: unknown[] = [];
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

  const post = async (path: string, body: unknown) => {
    const response = await world.server.request('POST', `/api/v1${path}`, { token: world.admin, body });
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${response.text}`);
    return response.body;
  };
  /** A rule the rule form's way (dates, direction, status) with one condition added as the conditions table adds it. */
  const rule = async (profilePath: string, direction: string, commission: Record<string, unknown>) => {
    const created = await post(`${profilePath}/commission-rule`, {
      beginDate: '2020-01-01T00:00:00.000Z',
      endDate: '2099-01-01T00:00:00.000Z',
      direction,
      active: true,
    });
    await post(`${profilePath}/commission-rule/${created.rule.id}/condition`, { beginAmount: 0, commission });
  };

  beforeAll(async () => {
    const usd = await aCurrency(world.server, world.admin, { fraction: 100 });
    const usdIssuer = await anIssuer(world.server, world.admin, usd.code, 'Dollar issuer');
    await aRate(world.server, world.admin, world.currency.code, usd.code, '1.0937');
    await fundReserve(world.server, world.admin, usdIssuer.id, '100000.00');
    customers = [];
    for (let i = 0; i < 5; i++) {
      const actor = await world.user();
      customers.push({ actor, coin: await world.coin(actor, '400.00'), dollars: await aCoin(world.server, actor.token, usdIssuer.id) });
    }
    // Customers 0–2 share transfer fees (a cent and 1.5 %) and pay 2 % on exchanges to dollars; customer 3's payees pay its transfer fees.
    const shared = await aContract(world.server, world.admin, { global: true });
    const transfers = await post(`/contracts/${shared.id}/commission-profiles`, {
      issuerId: world.issuer.id,
      operationFlowId: 'client_transaction_transfer',
      srcParticipantSpecification: { type: 'no', value: null },
      destParticipantSpecification: { type: 'no', value: null },
    });
    await rule(`/contracts/${shared.id}/commission-profiles/${transfers.profile.id}`, 'SHARED', {
      type: 'fixed_and_percent',
      valueFixed: 0.01,
      valuePercent: 1.5,
    });
    const toDollars = await post(`/contracts/${shared.id}/commission-profiles/multi-currency`, {
      operationFlowId: 'exchange',
      sourceIssuerId: world.issuer.id,
      destinationIssuerId: usdIssuer.id,
      srcParticipantSpecification: { type: 'no', value: null },
      destParticipantSpecification: { type: 'no', value: null },
    });
    await rule(`/contracts/${shared.id}/commission-profiles/${toDollars.profile.id}`, 'SHARED', { type: 'percent', valuePercent: 2 });
    for (const c of customers.slice(0, 3)) await assignContract(world.server, world.admin, c.actor.organizationId, shared.id);
    const recipientPays = await aContract(world.server, world.admin);
    const incoming = await post(`/contracts/${recipientPays.id}/commission-profiles`, {
      issuerId: world.issuer.id,
      operationFlowId: 'client_transaction_transfer',
    });
    await rule(`/contracts/${recipientPays.id}/commission-profiles/${incoming.profile.id}`, 'IN', { type: 'fixed', valueFixed: 0.25 });
    await assignContract(world.server, world.admin, customers[3].actor.organizationId, recipientPays.id);
  });

  const send = (from: (typeof customers)[number], to: (typeof customers)[number], value: string, key: string) =>
    world.server.request('POST', '/api/v1/transfers', {
      token: from.actor.token,
      headers: { 'Idempotency-Key': key },
      body: { paymentTool: { type: 'COIN', srcValue: from.coin.serial, destValue: to.coin.serial }, amount: value },
    });
  const others = (c: (typeof customers)[number]) => customers.filter((o) => o !== c);

  const actions: Record<string, () => Promise<unknown>> = {
    async transfer() {
      const from = pick(customers);
      note('transfer', await send(from, pick(others(from)), amount(3000), `t-${SEED}-${keys++}`));
    },
    async overdraft() {
      const from = pick(customers);
      note('transfer', await send(from, pick(others(from)), '100000.00', `o-${SEED}-${keys++}`));
    },
    async retriedTransfer() {
      const from = pick(customers);
      const to = pick(others(from));
      const key = `r-${SEED}-${keys++}`;
      const value = amount(2000);
      const all = await Promise.all([send(from, to, value, key), send(from, to, value, key), send(from, to, value, key)]);
      for (const a of all) {
        note('retried transfer', a);
        if (a.status === 201) retried.set(key, (retried.get(key) ?? new Set()).add(a.body.process.id));
      }
    },
    async exchange() {
      const { actor, coin, dollars } = pick(customers);
      note(
        'exchange',
        await world.server.request('POST', '/api/v1/exchange', {
          token: actor.token,
          headers: { 'Idempotency-Key': `x-${SEED}-${keys++}` },
          body: { fromCoin: coin.serial, toCoin: dollars.serial, amount: amount(2000), direction: 'sell' },
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
    // The opening balances and the dollar reserve moved too (from the issuers' bank-settlement coins).
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
    for (const what of ['transfer 201', 'transfer 409', 'retried transfer 201', 'exchange 201']) {
      expect({ what, context, ran: (outcomes.get(what) ?? 0) > 0 }).toEqual({ what, context, ran: true });
    }
    // Shared fees were charged: some operation's commission is split between a sender's extra and a payee's shortfall.
    const [{ n: feesCharged }] = (
      await world.raw.db.query(`SELECT count(*)::int AS n FROM operations WHERE details->'commission'->>'payer' = 'shared'`)
    ).rows;
    expect({ context, feesCharged: feesCharged > 0 }).toEqual({ context, feesCharged: true });
    // One Idempotency-Key, one operation, however many answered it.
    expect(retried.size).toBeGreaterThan(0);
    for (const [key, ids] of retried) expect({ key, operations: ids.size }).toEqual({ key, operations: 1 });
    // Σ per currency is unchanged: zero, the ledger is closed.
    for (const [code, total] of Object.entries(await sumsPerCurrency(world.raw))) {
      expect({ context, code, total: new Dec(total).isZero() }).toEqual({ context, code, total: true });
    }
    await expectCoinsMatchAnswers(world.raw.db, processed.values(), context);
    await expectBalancedLedger(world.server, world.admin);
    expect(await expectAnswersReadBack(world.server, world.admin, answers)).toBeGreaterThan(30);
  });
});
