import type { Actor } from './helpers/actors';
import { aContract, assignContract } from './helpers/commissions';
import { aRate, fundReserve, sumsPerCurrency } from './helpers/exchange';
import { integrityMix } from './helpers/integrity-mix';
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
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261127);

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
  const mix = integrityMix(world, { seed: SEED, batches: 5, perBatch: 24 });
  const { pick, amount, key, note } = mix;

  let customers: { actor: Actor; coin: CoinBody; dollars: CoinBody }[];
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
    transfer: () => mix.transfer(customers),
    async overdraft() {
      const from = pick(customers);
      note('transfer', await send(from, pick(others(from)), '100000.00', key('o')));
    },
    async retriedTransfer() {
      const from = pick(customers);
      const to = pick(others(from));
      const retry = key('r');
      const value = amount(2000);
      await mix.thrice('retried transfer', retry, () => send(from, to, value, retry));
    },
    async exchange() {
      const { actor, coin, dollars } = pick(customers);
      note(
        'exchange',
        await world.server.request('POST', '/api/v1/exchange', {
          token: actor.token,
          headers: { 'Idempotency-Key': key('x') },
          body: { fromCoin: coin.serial, toCoin: dollars.serial, amount: amount(2000), direction: 'sell' },
        }),
      );
    },
    topUp: () => mix.topUp(customers),
  };

  it('keeps every balance equal to its entries and to what the answers said moved; a retried key moves money once', async () => {
    // The opening balances and the dollar reserve moved too (from the issuers' bank-settlement coins).
    await mix.readOpening();
    await mix.run(actions);
    mix.expectRan(['transfer 201', 'transfer 409', 'retried transfer 201', 'exchange 201']);
    const context = mix.context();
    // Shared fees were charged: some operation's commission is split between a sender's extra and a payee's shortfall.
    const [{ n: feesCharged }] = (
      await world.raw.db.query(`SELECT count(*)::int AS n FROM operations WHERE details->'commission'->>'payer' = 'shared'`)
    ).rows;
    expect({ context, feesCharged: feesCharged > 0 }).toEqual({ context, feesCharged: true });
    mix.expectRetriedOnce();
    // Σ per currency is unchanged: zero, the ledger is closed.
    for (const [code, total] of Object.entries(await sumsPerCurrency(world.raw))) {
      expect({ context, code, total: new Dec(total).isZero() }).toEqual({ context, code, total: true });
    }
    await expectCoinsMatchAnswers(world.raw.db, mix.processed.values(), context);
    await expectBalancedLedger(world.server, world.admin);
    expect(await expectAnswersReadBack(world.server, world.admin, mix.answers)).toBeGreaterThan(30);
  });
});
