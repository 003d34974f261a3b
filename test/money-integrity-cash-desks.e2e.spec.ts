import type { Actor } from './helpers/actors';
import { aFee, percent } from './helpers/commissions';
import { CashDeskBody, integrityMix, twoCashDesks } from './helpers/integrity-mix';
import { CoinBody, Dec, expectAnswersReadBack, expectBalancedLedger, expectCoinsMatchAnswers } from './helpers/money';
import type { ApiResponse } from './helpers/server';
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261126);

/**
 * Money integrity of customers' withdrawals at cash desks (`POST /cash-desk-withdrawals/{id}`), in the style of
 * money-integrity.e2e.spec.ts: a seeded random mix of withdrawals at two desks (some with a fee, some retried in
 * parallel with one Idempotency-Key, some for more than the coin holds), transfers and top-ups, run in parallel
 * batches. Afterwards every balance is its entries and what the answers said moved, nothing is negative, Σ per
 * currency is unchanged (zero: the ledger is closed), and each retried key took effect once.
 */
describe(`money integrity: cash-desk withdrawals in parallel (seed ${SEED}; INTEGRITY_SEED=… to replay)`, () => {
  const world = moneyWorld();
  const mix = integrityMix(world, { seed: SEED, batches: 5, perBatch: 24 });
  const { pick, amount, key } = mix;

  let customers: { actor: Actor; coin: CoinBody }[];
  let desks: CashDeskBody[];

  const note = (what: string, response: ApiResponse) => {
    if (!response.body?.process) return mix.note(what, response);
    // The withdrawal's answer adds what the family's success screen reads and its record; the rest is the operation.
    const { cashAmount: _a, clientCoin: _c, cashDeskId: _d, receiverName: _r, transaction, ...process } = response.body.process;
    // A withdrawal's record is its operation as the history lists it (issue 45); other notes carry none.
    if (response.status < 300 && transaction) mix.answers.push(transaction[0]);
    return mix.note(what, response, process);
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
    desks = await twoCashDesks(world);
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
      note('withdrawal', await withdraw(actor, pick(desks).id, body, key('w')));
    },
    async overdraft() {
      const { actor, coin } = pick(customers);
      const body = { coin: coin.serial, amount: '100000.00', receiverName: 'Receiver' };
      note('withdrawal', await withdraw(actor, pick(desks).id, body, key('o')));
    },
    async retriedWithdrawal() {
      const { actor, coin } = pick(customers);
      const retry = key('r');
      const desk = pick(desks).id;
      const body = { coin: coin.serial, amount: amount(2000), receiverName: 'Receiver' };
      await mix.thrice('retried withdrawal', retry, () => withdraw(actor, desk, body, retry), note);
    },
    transfer: () => mix.transfer(customers),
    topUp: () => mix.topUp(customers),
  };

  it('keeps every balance equal to its entries and to what the answers said moved; a retried key moves money once', async () => {
    // The customers' opening balances moved too (from the issuer's bank-settlement coin).
    await mix.readOpening();
    await mix.run(actions);
    mix.expectRan(['withdrawal 201', 'withdrawal 409', 'retried withdrawal 201', 'transfer 201']);
    mix.expectRetriedOnce();
    await mix.expectClosed();
    const coins = await expectCoinsMatchAnswers(world.raw.db, mix.processed.values(), mix.context(), world.currency.id);
    // What the desks received is what the withdrawals answered as the desks' share.
    for (const desk of desks) {
      const serial = desk.coins[0].serial;
      const got = coins.find((c) => c.serial === serial)!;
      expect(new Dec(got.balance).gt(0)).toBe(true);
    }
    await expectBalancedLedger(world.server, world.admin);
    expect(await expectAnswersReadBack(world.server, world.admin, mix.answers)).toBeGreaterThan(30);
  });
});
