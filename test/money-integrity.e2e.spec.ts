import type { Actor } from './helpers/actors';
import { aFee, ConditionBody, percent } from './helpers/commissions';
import { aRate, exchange, fundReserve, sumsPerCurrency } from './helpers/exchange';
import { coinSums, expectCoinsEqualEntries, finishGateTransactions, integrityMix, movedOn } from './helpers/integrity-mix';
import { aCoin, aCurrency, anIssuer, CoinBody, coinOf, Dec, expectAnswersReadBack, expectBalancedLedger, fund } from './helpers/money';
import type { ApiResponse } from './helpers/server';
import { moneyWorld } from './helpers/world';
import { generator } from './helpers/random';

const SEED = Number(process.env.INTEGRITY_SEED ?? 20261123);
const document = { documentType: 'passport', documentNumber: 'X1' };

/**
 * Money integrity under concurrency (issue 12): a seeded pseudo-random mix of bank top-ups (direct
 * and requests), withdrawals (requests accepted or declined, and direct), cash desk operations and
 * transfers, run in parallel batches with fees on several flows. Afterwards the ledger is closed
 * (client + system balances sum to zero per currency), what the answers said moved in and out of
 * the service is what client coins hold, every coin's balance is the sum of its entries and its
 * held amount the sum of its open holds, nothing is negative, and the ledger check is balanced.
 */
describe(`money integrity: a random mix of every money flow in parallel (seed ${SEED}; INTEGRITY_SEED=… to replay)`, () => {
  const world = moneyWorld();
  const mix = integrityMix(world, { seed: SEED, batches: 6, perBatch: 30, amountMax: 5000 });
  const { random, pick, amount } = mix;

  let customers: { actor: Actor; coin: CoinBody }[];
  let cashier: Actor;
  let desk: { id: string; coins: { serial: string }[] };
  const note = (what: string, response: ApiResponse) => {
    if (!response.body?.process) return mix.note(what, response);
    // POST /bank-withdrawals adds what the family's success screen reads of the withdrawal; the rest is the operation.
    const { cashAmount: _cashAmount, clientCoin: _clientCoin, ...process } = response.body.process;
    return mix.note(what, response, process);
  };

  beforeAll(async () => {
    customers = [];
    for (let i = 0; i < 6; i++) {
      const actor = await world.user();
      customers.push({ actor, coin: await world.coin(actor) });
    }
    // Fees on several flows, paid by the sender or the recipient: customer i pays (or receives less) on flow i.
    const fees: [flow: string, conditions: ConditionBody[], payer?: 'recipient'][] = [
      ['client_transaction_transfer', percent('1.5')],
      ['bank_withdrawal', [{ beginAmount: '0', commission: { type: 'fixed', valueFixed: '0.75' } }]],
      ['bank_topup', percent('0.5'), 'recipient'],
      ['cash_out', percent('2')],
      ['cash_in', percent('1'), 'recipient'],
    ];
    for (const [i, [flow, conditions, payer]] of fees.entries()) {
      const fee = { organizationId: customers[i].actor.organizationId, issuerId: world.issuer.id, flow, conditions };
      await aFee(world.server, world.admin, { ...fee, payer });
    }
    desk = (
      await world.server.request('POST', '/api/v1/cash-desks', {
        token: world.admin,
        body: { name: 'Integrity desk', issuerIds: [world.issuer.id] },
      })
    ).body.cashDesk;
    cashier = await world.user({ role: 'cashier', organizationId: desk.id });
    note('fund desk', {
      status: 201,
      body: { process: await fund(world.server, world.admin, desk.coins[0].serial, '20000.00') },
    } as ApiResponse);
  });

  const actions: Record<string, () => Promise<unknown>> = {
    directTopUp: () => mix.topUp(customers),
    async requestedTopUp() {
      const { actor, coin } = pick(customers);
      const asked = note(
        'top-up request',
        await world.server.request('POST', '/api/v1/bank-top-ups/create-request', {
          token: actor.token,
          body: { coinSerial: coin.serial, amount: amount() },
        }),
      );
      const id = asked.body.bankTopUp?.id;
      if (!id) return;
      if (random() < 0.7)
        note('top-up accept', await world.server.request('POST', `/api/v1/bank-top-ups/${id}/accept`, { token: world.admin }));
      else
        note(
          'top-up decline',
          await world.server.request('POST', `/api/v1/bank-top-ups/${id}/decline`, { token: world.admin, body: { reason: 'r' } }),
        );
    },
    async withdrawalRequest() {
      const { actor, coin } = pick(customers);
      const asked = note(
        'withdrawal request',
        await world.server.request('POST', '/api/v1/bank-withdrawals/create-request', {
          token: actor.token,
          body: { coinSerial: coin.serial, amount: amount(3000), bankDetails: { iban: 'NL91ABNA0417164300', accountHolder: 'Holder' } },
        }),
      );
      const id = asked.body.bankWithdrawal?.id;
      if (!id) return;
      const decision = random() < 0.6 ? 'accept' : 'decline';
      const race = random() < 0.3;
      const decide = (d: string) =>
        world.server.request('POST', `/api/v1/bank-withdrawals/${id}/${d}`, {
          token: world.admin,
          body: d === 'decline' ? { reason: 'r' } : undefined,
        });
      const answers = await Promise.all(race ? [decide('accept'), decide('decline')] : [decide(decision)]);
      for (const a of answers) note(`withdrawal decision`, a);
    },
    async directWithdrawal() {
      const { coin } = pick(customers);
      note(
        'withdrawal',
        await world.server.request('POST', '/api/v1/bank-withdrawals', {
          token: world.admin,
          body: { coinSerial: coin.serial, amount: amount(2000), bankDetails: { iban: 'NL91ABNA0417164300', accountHolder: 'Holder' } },
        }),
      );
    },
    async transfer() {
      const from = pick(customers);
      const to = pick(customers.filter((c) => c !== from));
      note(
        'transfer',
        await world.server.request('POST', '/api/v1/transfers', {
          token: from.actor.token,
          body: { paymentTool: { type: 'COIN', srcValue: from.coin.serial, destValue: to.coin.serial }, amount: amount(4000) },
        }),
      );
    },
    async cash() {
      const { actor, coin } = pick(customers);
      const type = random() < 0.5 ? 'cash_in' : 'cash_out';
      const entered = note(
        type,
        await world.server.request('POST', '/api/v1/cash-desk-operations', {
          token: cashier.token,
          body: { type, coinSerial: coin.serial, amount: amount(3000), fullName: 'Customer', document },
        }),
      );
      const id = entered.body.cashDeskOperation?.id;
      if (!id) return;
      const roll = random();
      if (roll < 0.4)
        note(`${type} confirm`, await world.server.request('POST', `/api/v1/cash-desk-operations/${id}/confirm`, { token: actor.token }));
      else if (roll < 0.8) {
        // A cash-out the desk completes only after presenting the customer's one-time code for its coin and amount.
        if (type === 'cash_out') {
          const code = await world.server.request('POST', '/api/v1/cash-desk-operations/cash-out-codes', {
            token: actor.token,
            body: { coinSerial: coin.serial, amount: entered.body.cashDeskOperation.amount },
          });
          note(
            'cash_out authorize',
            await world.server.request('POST', `/api/v1/cash-desk-operations/${id}/authorize`, {
              token: cashier.token,
              body: { cashOutCode: code.body.cashOutCode.code },
            }),
          );
        }
        note(
          `${type} complete`,
          await world.server.request('POST', `/api/v1/cash-desk-operations/${id}/complete`, { token: cashier.token }),
        );
      } else
        note(
          `${type} decline`,
          await world.server.request('POST', `/api/v1/cash-desk-operations/${id}/decline`, { token: cashier.token, body: { reason: 'r' } }),
        );
    },
  };

  it('keeps every balance equal to its entries and to what the answers said moved, with nothing negative', async () => {
    await mix.run(actions);
    const context = mix.context();
    // Every kind of flow really ran and succeeded at least once.
    mix.expectRan([
      'top-up 201',
      'top-up accept 200',
      'withdrawal request 201',
      'withdrawal decision 200',
      'transfer 201',
      'cash_in 201',
      'cash_out 201',
      'cash_out authorize 200',
      'cash_out complete 200',
    ]);
    const db = world.raw.db;
    const currency = world.currency.id;
    // The ledger is closed: client and system balances sum to zero.
    await mix.expectClosed();
    // What the answers said crossed the service's edge (from or to a system coin) is what client coins hold.
    const system = new Set<string>(
      (await db.query(`SELECT serial::text AS serial FROM coins WHERE type = 'system' AND currency_id = $1`, [currency])).rows.map(
        (r) => r.serial,
      ),
    );
    let external = new Dec(0);
    const expected = new Map<string, InstanceType<typeof Dec>>();
    const add = (serial: string, value: InstanceType<typeof Dec>) => expected.set(serial, (expected.get(serial) ?? new Dec(0)).plus(value));
    for (const process of mix.processed.values()) {
      for (const leg of process.transactions) {
        const value = new Dec(String(leg.amount));
        add(leg.from.serial, value.negated());
        add(leg.to.serial, value);
        if (system.has(leg.from.serial) && !system.has(leg.to.serial)) external = external.plus(value);
        if (!system.has(leg.from.serial) && system.has(leg.to.serial)) external = external.minus(value);
      }
    }
    const [clients] = (
      await db.query(`SELECT COALESCE(sum(balance), 0)::text AS total FROM coins WHERE type = 'client' AND currency_id = $1`, [currency])
    ).rows;
    expect({ context, clients: new Dec(clients.total).toFixed(2) }).toEqual({ context, clients: external.toFixed(2) });
    // Each coin holds exactly what the answers moved to and from it, its entries sum to its balance, its holds to its held amount.
    for (const c of await coinSums(db, currency)) {
      const row = { context, serial: c.serial };
      expect({ ...row, balance: new Dec(c.balance).toFixed(2) }).toEqual({
        ...row,
        balance: (expected.get(c.serial) ?? new Dec(0)).toFixed(2),
      });
      expect({
        ...row,
        entries: new Dec(c.entries).eq(c.balance),
        holds: new Dec(c.holds).eq(c.held),
        heldNonNegative: !new Dec(c.held).isNegative(),
      }).toEqual({
        ...row,
        entries: true,
        holds: true,
        heldNonNegative: true,
      });
      if (c.type === 'client')
        expect({ ...row, available: !new Dec(c.balance).minus(c.held).isNegative() }).toEqual({ ...row, available: true });
    }
    // Open holds belong to pending operations only, and every decided request left none.
    const [strayHolds] = (
      await db.query(
        `SELECT count(*)::int AS n FROM holds h JOIN operations o ON o.id = h.operation_id WHERE h.status = 'open' AND o.status <> 'pending'`,
      )
    ).rows;
    expect(strayHolds.n).toBe(0);
    await expectBalancedLedger(world.server, world.admin);
    // Every answer was the operation as it is read back (pending ones settled since aside).
    expect(await expectAnswersReadBack(world.server, world.admin, mix.answers)).toBeGreaterThan(50);
  });
});

/**
 * The money-integrity property of issue 13: exchanges, vouchers and card payments only move money.
 * Per currency, the sum of the balances of all coins (client and system coins: reserves, commission,
 * bank settlement) is the same after every one of them, successful or refused, and the ledger check
 * recomputes every balance from its entries.
 */
describe('money only moves: exchanges, vouchers and card payments (issue 13)', () => {
  const world = moneyWorld({ env: { VOUCHER_EXPIRY_SWEEP_SECONDS: '0' } });

  it('keeps Σ balances per currency through a seeded random mix of 60 operations, fees included', async () => {
    const big = await aCurrency(world.server, world.admin, { fraction: '1000000000000000000' });
    const bigIssuer = await anIssuer(world.server, world.admin, big.code);
    const A = world.currency.code;
    await aRate(world.server, world.admin, A, big.code, '1.234567890123456789');
    await aRate(world.server, world.admin, big.code, A, '0.810000000000000001');
    await fundReserve(world.server, world.admin, world.issuer.id, '500.00');
    await fundReserve(world.server, world.admin, bigIssuer.id, '500');

    const people: { actor: Actor; a: CoinBody; b: CoinBody; card: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const actor = await world.user({ role: i % 2 ? 'merchant' : 'individual' });
      const a = await world.coin(actor, '300.00');
      const b = await aCoin(world.server, actor.token, bigIssuer.id);
      await fund(world.server, world.admin, b.serial, '250.5');
      const card = (
        await world.server.request('POST', '/api/v1/smart-cards', { token: actor.token, body: { coinSerial: a.serial, name: 'Card' } })
      ).body.card.id;
      people.push({ actor, a, b, card });
    }
    // Fees on every flow for the first person: transfers (and card payments), exchanges, vouchers.
    for (const flow of ['client_transaction_transfer', 'exchange', 'voucher']) {
      await aFee(world.server, world.admin, {
        organizationId: people[0].actor.organizationId,
        issuerId: world.issuer.id,
        conditions: percent('1.25'),
        flow,
      });
    }

    let seed = 13;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    /** An exchange of an amount below `most` (at least 0.01) from one coin of `actor` to the other. */
    const anExchange = (actor: Actor, from: CoinBody, to: CoinBody, most: number, direction: 'sell' | 'buy') =>
      exchange(world.server, actor.token, {
        fromCoin: from.serial,
        toCoin: to.serial,
        amount: `${next(most)}.${String(next(100)).padStart(2, '0')}`.replace(/^0\.00$/, '0.01'),
        direction,
      });
    const codes: string[] = [];
    const vouchers: { id: string; owner: Actor }[] = [];
    const before = await sumsPerCurrency(world.server);
    const outcomes: Record<number, number> = {};
    const answers: unknown[] = [];
    for (let step = 0; step < 60; step++) {
      const p = people[next(people.length)];
      const q = people[next(people.length)];
      let response: ApiResponse;
      switch (next(6)) {
        case 0:
          response = await anExchange(p.actor, p.a, p.b, 80, 'sell');
          break;
        case 1:
          response = await anExchange(p.actor, p.b, p.a, 40, 'buy');
          break;
        case 2:
          response = await world.server.request('POST', '/api/v1/vouchers', {
            token: p.actor.token,
            body: { coinSerial: p.a.serial, amount: `${1 + next(60)}.${String(next(100)).padStart(2, '0')}` },
          });
          if (response.status === 201) {
            codes.push(response.body.code);
            vouchers.push({ id: response.body.voucher.id, owner: p.actor });
          }
          break;
        case 3:
          response = codes.length
            ? await world.server.request('POST', '/api/v1/vouchers/redeem', {
                token: q.actor.token,
                body: { code: codes[next(codes.length)], coinSerial: q.a.serial },
              })
            : await world.server.request('GET', '/api/v1/smart-cards/my', { token: q.actor.token });
          break;
        case 4: {
          const v = vouchers.length ? vouchers[next(vouchers.length)] : undefined;
          response = v
            ? await world.server.request('POST', `/api/v1/vouchers/${v.id}/block`, { token: v.owner.token })
            : await world.server.request('GET', '/api/v1/smart-cards/my', { token: q.actor.token });
          break;
        }
        default:
          response = await world.server.request('POST', '/api/v1/transfers', {
            token: p.actor.token,
            body: { paymentTool: { type: 'SMART_CARD', srcValue: p.card, destValue: q.card }, amount: `${next(90)}.50` },
          });
      }
      outcomes[response.status] = (outcomes[response.status] ?? 0) + 1;
      expect(response.status).toBeLessThan(500);
      if (response.status < 300 && response.body?.process) answers.push(response.body.process);
      const now = await sumsPerCurrency(world.server);
      for (const code of Object.keys(before)) {
        expect({ step, code, same: new Dec(now[code] ?? '0').eq(before[code]) }).toEqual({ step, code, same: true });
      }
    }
    // The mix moved money and was refused sometimes (insufficient funds, redeemed, blocked, same coin).
    expect({ outcomes, moved: (outcomes[201] ?? 0) >= 15, refused: (outcomes[409] ?? 0) >= 5 }).toMatchObject({
      moved: true,
      refused: true,
    });
    // Per currency, every coin's balance sums to zero: the settlement coins hold what the bank top-ups brought in.
    for (const total of Object.values(await sumsPerCurrency(world.server))) expect(new Dec(total).isZero()).toBe(true);
    await expectBalancedLedger(world.server, world.admin);
    expect(await expectAnswersReadBack(world.server, world.admin, answers)).toBeGreaterThan(10);
  });
});

/**
 * The money-integrity property with gate payments in the mix (issue 14): payments that succeed, fail, or wait for a
 * signed callback (sent twice), with fees by a provider rule, in parallel with transfers. Once every gate
 * transaction is finished, each coin's balance is the sum of its entries and its held amount the sum of its open
 * holds, no hold is left open, client and system balances sum to zero, and every payer paid exactly amount + fee
 * for each processed payment and nothing for the failed ones.
 */
describe('money integrity with gate payments in the mix (issue 14)', () => {
  const world = moneyWorld({ env: { GATE_RECONCILE_SECONDS: '0' } });
  const secret = 'integrity-provider-secret-01';

  it('keeps every balance equal to its entries, with payments processed, failed and called back in parallel', async () => {
    const { server, admin } = world;
    const provider = (
      await server.request('POST', '/api/v1/gate-providers', {
        token: admin,
        body: { name: 'Integrity biller', type: 'billing', settings: { secret, failAbove: '40.00', asyncAbove: '30.00', latencyMs: 20 } },
      })
    ).body.gateProvider;
    const product = (
      await server.request('POST', '/api/v1/gate/products', {
        token: admin,
        body: { gateProviderId: provider.id, name: 'Anything', currency: world.currency.code, minAmount: '0.01', maxAmount: '100.00' },
      })
    ).body.product;
    const profile = (
      await server.request('POST', `/api/v1/contracts/00000000-0000-4000-8000-000000000101/gate-commission-profiles`, {
        token: admin,
        body: { gateProviderId: provider.id },
      })
    ).body.profile;
    await server.request(
      'POST',
      `/api/v1/contracts/00000000-0000-4000-8000-000000000101/gate-commission-profiles/${profile.id}/commission-provider-rule`,
      {
        token: admin,
        body: {
          type: 'fixed_and_percent',
          valuePercent: '1.5',
          valueFixed: '0.10',
          beginDate: '2026-01-01T00:00:00Z',
          endDate: '2030-01-01T00:00:00Z',
          collector: 'operator',
        },
      },
    );
    const people: { actor: Actor; coin: CoinBody }[] = [];
    for (let i = 0; i < 4; i++) {
      const actor = await world.user();
      people.push({ actor, coin: await world.coin(actor, '200.00') });
    }
    const random = generator(SEED + 14);
    const started: { id: string; payer: string; token: string }[] = [];
    const amount = () => `${1 + Math.floor(random() * 45)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`;
    for (let batch = 0; batch < 4; batch++) {
      await Promise.all(
        Array.from({ length: 12 }, async () => {
          const p = people[Math.floor(random() * people.length)];
          const q = people[Math.floor(random() * people.length)];
          if (random() < 0.6) {
            const answer = await server.request('POST', '/api/v1/gate/transactions', {
              token: p.actor.token,
              body: { productId: product.id, coinSerial: p.coin.serial, amount: amount(), type: 'payment' },
            });
            expect([201, 409]).toContain(answer.status);
            if (answer.status === 201) started.push({ id: answer.body.transaction.id, payer: p.coin.serial, token: p.actor.token });
          } else {
            const answer = await server.request('POST', '/api/v1/transfers', {
              token: p.actor.token,
              body: { paymentTool: { type: 'COIN', srcValue: p.coin.serial, destValue: q.coin.serial }, amount: amount() },
            });
            expect([201, 400, 409]).toContain(answer.status);
          }
        }),
      );
    }
    // Every payment waiting for its callback gets it, twice; then all are finished.
    const transactions = await finishGateTransactions(server, started, secret);
    const outcomes = transactions.reduce<Record<string, number>>((o, t) => ({ ...o, [t.status]: (o[t.status] ?? 0) + 1 }), {});
    expect({
      outcomes,
      processed: (outcomes.processed ?? 0) > 3,
      failure: (outcomes.failure ?? 0) > 0,
      open: transactions.length - (outcomes.processed ?? 0) - (outcomes.failure ?? 0),
    }).toMatchObject({
      processed: true,
      failure: true,
      open: 0,
    });
    const db = world.raw.db;
    // What each processed payment's operation moved is exactly its amount + fee, out of its payer.
    for (const t of transactions) {
      const { moved } = await movedOn(db, t.operationId, t.coinSerial);
      expect({ id: t.id, paid: moved.negated().toFixed(2) }).toEqual({
        id: t.id,
        paid: t.status === 'processed' ? new Dec(String(t.amount)).plus(String(t.commission)).toFixed(2) : '0.00',
      });
    }
    await expectCoinsEqualEntries(db, world.currency.id);
    await expectBalancedLedger(server, admin);
  });
});

/**
 * The money-integrity property with invoice and merchant payments in the mix (issue 15): customers pay invoices
 * (several at once for one invoice) and merchants (by coin and by product list) in parallel with transfers, fees on
 * both flows. Each invoice is paid at most once, each coin's balance is the sum of its entries, client and system
 * balances sum to zero, and every merchant holds exactly what the answers said it was paid.
 */
describe('money integrity with invoice and merchant payments in the mix (issue 15)', () => {
  const world = moneyWorld();

  it('pays each invoice once and keeps every balance equal to its entries', async () => {
    const { server, admin } = world;
    const shops: { actor: Actor; till: CoinBody; product: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const actor = await world.user({ role: 'merchant' });
      const till = await world.coin(actor);
      const product = (await server.request('POST', '/api/v1/merchant-products', { token: actor.token, body: { name: 'Item' } })).body
        .product.id;
      await server.request('POST', `/api/v1/merchant-products/${product}/prices`, {
        token: actor.token,
        body: { currency: world.currency.code, price: '1.25' },
      });
      shops.push({ actor, till, product });
    }
    const people: { actor: Actor; coin: CoinBody }[] = [];
    for (let i = 0; i < 4; i++) {
      const actor = await world.user();
      people.push({ actor, coin: await world.coin(actor, '150.00') });
      // A 2 % fee paid by half of the payers on invoices, by the other half on merchant payments.
      await aFee(server, admin, {
        organizationId: actor.organizationId,
        issuerId: world.issuer.id,
        conditions: percent('2'),
        flow: i % 2 ? 'merchant_payment' : 'invoice_payment',
      });
    }
    const random = generator(SEED + 15);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const received = new Map<string, InstanceType<typeof Dec>>();
    const credit = (serial: string, amount: string | number) =>
      received.set(serial, (received.get(serial) ?? new Dec(0)).plus(String(amount)));
    const paidInvoices = new Map<string, number>();
    for (let batch = 0; batch < 4; batch++) {
      // A few invoices, each offered to three payers at once.
      const invoices = await Promise.all(
        shops.map(async (shop) => {
          const amount = `${1 + Math.floor(random() * 30)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`;
          return {
            shop,
            id: (
              await server.request('POST', '/api/v1/invoices', {
                token: shop.actor.token,
                body: { name: 'Bill', recipientCoin: shop.till.serial, amount },
              })
            ).body.invoice.id as string,
          };
        }),
      );
      await Promise.all([
        ...invoices.flatMap(({ shop, id }) =>
          [0, 1, 2].map(async () => {
            const payer = pick(people);
            const answer = await server.request('POST', `/api/v1/invoices/${id}/pay`, {
              token: payer.actor.token,
              body: { payerCoin: payer.coin.serial },
            });
            expect([201, 409]).toContain(answer.status);
            if (answer.status === 201) {
              paidInvoices.set(id, (paidInvoices.get(id) ?? 0) + 1);
              for (const leg of answer.body.process.transactions)
                if (leg.to.serial === shop.till.serial) credit(shop.till.serial, leg.amount);
            }
          }),
        ),
        ...Array.from({ length: 8 }, async () => {
          const payer = pick(people);
          const shop = pick(shops);
          const body =
            random() < 0.5
              ? {
                  merchantId: shop.actor.organizationId,
                  amount: `${1 + Math.floor(random() * 20)}.50`,
                  payer: { method: 'coin', value: payer.coin.serial },
                }
              : {
                  merchantId: shop.actor.organizationId,
                  items: [{ productId: shop.product, quantity: 1 + Math.floor(random() * 4) }],
                  payer: { method: 'coin', value: payer.coin.serial },
                };
          const answer = await server.request('POST', '/api/v1/merchant-payments', { token: payer.actor.token, body });
          expect([201, 409]).toContain(answer.status);
          if (answer.status === 201)
            for (const leg of answer.body.process.transactions)
              if (leg.to.serial === shop.till.serial) credit(shop.till.serial, leg.amount);
        }),
        ...Array.from({ length: 4 }, async () => {
          const [p, q] = [pick(people), pick(people)];
          if (p === q) return;
          const answer = await server.request('POST', '/api/v1/transfers', {
            token: p.actor.token,
            body: { paymentTool: { type: 'COIN', srcValue: p.coin.serial, destValue: q.coin.serial }, amount: '3.00' },
          });
          expect([201, 409]).toContain(answer.status);
        }),
      ]);
    }
    expect([...paidInvoices.values()].every((n) => n === 1)).toBe(true);
    expect(paidInvoices.size).toBeGreaterThan(3);
    for (const shop of shops) {
      expect({
        shop: shop.till.serial,
        balance: new Dec((await coinOf(server, shop.actor.token, shop.till.serial)).amount).toFixed(2),
      }).toEqual({
        shop: shop.till.serial,
        balance: (received.get(shop.till.serial) ?? new Dec(0)).toFixed(2),
      });
    }
    const coins = (
      await world.raw.db.query(
        `SELECT c.serial::text AS serial, c.balance::text AS balance,
                COALESCE((SELECT sum(amount) FROM ledger_entries e WHERE e.coin_serial = c.serial), 0)::text AS entries
           FROM coins c WHERE c.currency_id = $1`,
        [world.currency.id],
      )
    ).rows;
    let total = new Dec(0);
    for (const c of coins) {
      total = total.plus(c.balance);
      expect({ serial: c.serial, entries: new Dec(c.entries).eq(c.balance) }).toEqual({ serial: c.serial, entries: true });
    }
    expect(total.toFixed(2)).toBe('0.00');
    await expectBalancedLedger(server, admin);
  });
});
