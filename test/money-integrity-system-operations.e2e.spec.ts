import type { Actor } from './helpers/actors';
import { CashDeskBody, integrityMix, twoCashDesks } from './helpers/integrity-mix';
import { CoinBody, expectAnswersReadBack, expectBalancedLedger, fund, expectCoinsMatchAnswers } from './helpers/money';
import { moneyWorld } from './helpers/world';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261127);

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
  const mix = integrityMix(world, { seed: SEED, batches: 5, perBatch: 24 });
  const { pick, amount, key, note } = mix;

  let customers: { actor: Actor; coin: CoinBody }[];
  let staff: Actor[];
  let desks: CashDeskBody[];
  let gateSettlement: string;
  /** The ids of the system operations answered. */
  const systemOperations = new Set<string>();

  beforeAll(async () => {
    customers = [];
    for (let i = 0; i < 4; i++) {
      const actor = await world.user({ role: i === 3 ? 'merchant' : 'individual' });
      customers.push({ actor, coin: await world.coin(actor, '400.00') });
    }
    staff = [await world.user({ role: 'cfo' }), await world.user({ role: 'accountant' })];
    desks = await twoCashDesks(world);
    for (const desk of desks) await fund(world.server, world.admin, desk.coins[0].serial, '200.00');
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
    const answer = note(what, await move(path, body, key('s')));
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
      const retry = key('r');
      const [path, body] = pick([
        ['/collects', { amount: amount(6000), serial: deskCoin(), fullName: 'Collector' }],
        ['/investments', { amount: amount(), serial: deskCoin(), fullName: 'Investor' }],
      ] as const);
      // A key is its user's: the retries are one staff member's.
      const by = pick(staff);
      const all = await mix.thrice('retried', retry, () => move(path, body, retry, by));
      for (const a of all) if (a.status === 201) systemOperations.add(a.body.process.id);
    },
    transfer: () => mix.transfer(customers),
    topUp: () => mix.topUp(customers),
  };

  it('keeps every balance equal to its entries and to what the answers said moved; a retried key moves money once', async () => {
    // The customers' opening balances moved too (from the issuer's bank-settlement coin).
    await mix.readOpening();
    await mix.run(actions);
    mix.expectRan(['investment 201', 'input 201', 'collect 201', 'collect 409', 'gate investment 201', 'retried 201', 'transfer 201']);
    mix.expectRetriedOnce();
    await mix.expectClosed();
    const db = world.raw.db;
    await expectCoinsMatchAnswers(db, mix.processed.values(), mix.context(), world.currency.id);
    // Every operation a system operation answered is in the action log, under who posted it.
    const logged = (await db.query(`SELECT details->>'operationId' AS id FROM user_actions WHERE action = 'money_moved'`)).rows.map(
      (r: { id: string }) => r.id,
    );
    for (const id of systemOperations) expect({ id, logged: logged.includes(id) }).toEqual({ id, logged: true });
    await expectBalancedLedger(world.server, world.admin);
    expect(await expectAnswersReadBack(world.server, world.admin, mix.answers)).toBeGreaterThan(30);
  });
});
