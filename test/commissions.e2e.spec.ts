import { Actor } from './helpers/actors';
import { aContract, aFee, aProfile, aRule, assignContract, ConditionBody, percent } from './helpers/commissions';
import {
  aCoin,
  aCurrency,
  anIssuer,
  balanceOf,
  Dec,
  expectBalancedLedger,
  expectError,
  expectLegs,
  expectStatus,
  fund,
  transfer,
} from './helpers/money';
import { moneyWorld } from './helpers/world';

describe('commissions applied to money movements', () => {
  const world = moneyWorld();

  /** The issuer's commission coin and its balance, read from the database. */
  const commissionCoin = async (issuerId = world.issuer.id): Promise<{ serial: string; balance: string }> => {
    const { rows } = await world.server.db.query(
      `SELECT serial::text AS serial, balance::text AS balance FROM coins WHERE issuer_id = $1 AND type = 'system' AND system_kind = 'commission'`,
      [issuerId],
    );
    return rows[0];
  };
  const operationsFrom = async (serial: string): Promise<number> =>
    (await world.server.db.query('SELECT count(*)::int AS n FROM operations WHERE from_coin = $1', [serial])).rows[0].n;

  /** A payer with its own contract charging `conditions` on transfers, a funded coin, and a payee coin. */
  const pricedPair = async (conditions: ConditionBody[], funds = '200.00', payer: 'sender' | 'recipient' = 'sender') => {
    const alice = await world.user();
    const bob = await world.user({ role: 'merchant' });
    const fee = await aFee(world.server, world.admin, {
      organizationId: alice.organizationId,
      issuerId: world.issuer.id,
      conditions,
      payer,
    });
    const [a, b] = await world.pair(alice, bob, funds);
    return { alice, bob, a, b, fee };
  };

  it('moves a percent fee to the commission coin in the transfer’s own operation; the ledger stays balanced', async () => {
    const { alice, bob, a, b, fee } = await pricedPair(percent('1'));
    const before = await commissionCoin();
    const response = await transfer(world.server, alice.token, a.serial, b.serial, '100.00', { customInformation: 'fee test' });
    expectStatus(response, 201);
    const process = response.body.process;
    expect(process).toMatchObject({ type: 'client_transaction_transfer', status: 'processed', amount: '100.00', commission: '1.00' });
    expectLegs(process, [
      [a.serial, b.serial, '100.00'],
      [a.serial, before.serial, '1.00'],
    ]);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('99.00');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('100.00');
    const after = await commissionCoin();
    expect(new Dec(after.balance).minus(before.balance).toFixed(2)).toBe('1.00');
    const { rows } = await world.server.db.query(`SELECT details FROM operations WHERE id = $1`, [process.id]);
    expect(rows[0].details.commission).toMatchObject({ ruleId: fee.rule.id, payer: 'sender' });
    await expectBalancedLedger(world.server, world.admin);

    // Both sides see the fee in the transactions view and in the operation.
    for (const actor of [alice, bob]) {
      const view = await world.server.request('POST', '/api/v1/transactions/view', {
        token: actor.token,
        body: { filter: { ids: [process.id] } },
      });
      expectStatus(view, 200);
      expect(view.body.records).toHaveLength(1);
      expect(view.body.records[0]).toMatchObject({ commission: '1.00', amount: '100.00' });
      expect(view.body.records[0].transactions.map((t: any) => [t.to.serial, t.amount])).toEqual([
        [b.serial, '100.00'],
        [before.serial, '1.00'],
      ]);
    }
    const read = await world.server.request('GET', `/api/v1/transactions/${process.id}`, { token: alice.token });
    expect(read.body.process).toEqual(process);
  });

  it('shows the same price in POST /transfers/calculate and POST /commissions/calculate as it posts', async () => {
    const { alice, a, b, fee } = await pricedPair(percent('2.5'));
    const tool = { type: 'COIN', srcValue: a.serial, destValue: b.serial };
    const calculated = await world.server.request('POST', '/api/v1/transfers/calculate', {
      token: alice.token,
      body: { paymentTool: tool, amount: '10.10' },
    });
    expectStatus(calculated, 200);
    // 2.5 % of 10.10 is 0.2525: 0.25 (half up at two decimals)
    expect(calculated.body).toMatchObject({
      transactionAmount: '10.10',
      senderAmountPush: '10.35',
      recipientAmountPush: '10.10',
      commissionAmountPush: '0.25',
      payerAmount: '10.35',
      payeeAmount: '10.10',
      commission: '0.25',
      paymentToolDetails: { type: 'COIN', srcValue: a.serial, destValue: b.serial, currency: world.currency.code },
    });
    const general = await world.server.request('POST', '/api/v1/commissions/calculate', {
      token: world.admin,
      body: { flow: 'client_transaction_transfer', payerCoin: a.serial, payeeCoin: b.serial, amount: 10.1 },
    });
    expectStatus(general, 200);
    expect(general.body).toMatchObject({
      status: 'ok',
      flow: 'client_transaction_transfer',
      currency: world.currency.code,
      amount: '10.10',
      commission: '0.25',
      payerAmount: '10.35',
      payeeAmount: '10.10',
      payer: 'sender',
      ruleId: fee.rule.id,
      senderAmountPush: '10.35',
      recipientAmountPush: '10.10',
      commissionAmountPush: '0.25',
    });
    // Another flow has no profile in that contract: free.
    const exchange = await world.server.request('POST', '/api/v1/commissions/calculate', {
      token: world.admin,
      body: { flow: 'exchange', payerCoin: a.serial, amount: '10.10' },
    });
    expect(exchange.body).toMatchObject({ commission: '0.00', payerAmount: '10.10', ruleId: null });
    const posted = await transfer(world.server, alice.token, a.serial, b.serial, '10.10');
    expect(posted.body.process.commission).toBe(calculated.body.commission);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('189.65');
  });

  it('answers 400 for a technical coin on either side of a calculation (specification section 7), 404 for an unknown one', async () => {
    const alice = await world.user();
    const [a, b] = await world.pair(alice, await world.user(), '10.00');
    const technical = (await commissionCoin()).serial;
    const { rows } = await world.server.db.query(
      `SELECT serial::text AS serial FROM coins WHERE type = 'system' AND system_kind = 'bank_settlement' LIMIT 1`,
    );
    const settlement = rows[0].serial;
    const general = (body: Record<string, unknown>) =>
      world.server.request('POST', '/api/v1/commissions/calculate', {
        token: world.admin,
        body: { flow: 'client_transaction_transfer', amount: '1', ...body },
      });
    expectError(await general({ payerCoin: technical, payeeCoin: b.serial }), 400, 'exception.validation', 'payerCoin');
    expectError(await general({ payerCoin: a.serial, payeeCoin: settlement }), 400, 'exception.validation', 'payeeCoin');
    expectError(await general({ flow: 'bank_topup', payeeCoin: settlement }), 400, 'exception.validation', 'payeeCoin');
    expectError(await general({}), 400, 'exception.validation', 'payeeCoin');
    expectError(await general({ payerCoin: '999999999999' }), 404, 'exception.coin.not_found');
    expectError(await general({ flow: 'teleport', payerCoin: a.serial }), 400, 'exception.validation', 'flow');
    expectError(await general({ payerCoin: a.serial, amount: '-1' }), 400, 'exception.validation', 'amount');
    const calc = (src: string, dst: string) =>
      world.server.request('POST', '/api/v1/transfers/calculate', {
        token: alice.token,
        body: { paymentTool: { type: 'COIN', srcValue: src, destValue: dst }, amount: '1.00' },
      });
    expectError(await calc(technical, b.serial), 400, 'exception.validation', 'paymentTool.srcValue');
    expectError(await calc(a.serial, technical), 400, 'exception.validation', 'paymentTool.destValue');
    expectError(await calc(a.serial, settlement), 400, 'exception.validation', 'paymentTool.destValue');
    // The general calculation is for staff holding COMMISSION_VIEWER.
    expectError(
      await world.server.request('POST', '/api/v1/commissions/calculate', {
        token: alice.token,
        body: { flow: 'exchange', payerCoin: a.serial, amount: '1' },
      }),
      403,
    );
  });

  it('lets the recipient pay: the payee is credited amount − fee; a fee beyond the amount is a 409 and writes nothing', async () => {
    const { alice, bob, a, b } = await pricedPair([{ commission: { type: 'fixed', valueFixed: '0.50' } }], '20.00', 'recipient');
    const collector = (await commissionCoin()).serial;
    const response = await transfer(world.server, alice.token, a.serial, b.serial, '10.00');
    expectStatus(response, 201);
    expect(response.body.process).toMatchObject({ amount: '10.00', commission: '0.50' });
    expectLegs(response.body.process, [
      [a.serial, b.serial, '9.50'],
      [a.serial, collector, '0.50'],
    ]);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('10.00');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('9.50');
    const calc = await world.server.request('POST', '/api/v1/transfers/calculate', {
      token: alice.token,
      body: { paymentTool: { type: 'COIN', srcValue: a.serial, destValue: b.serial }, amount: '0.50' },
    });
    expect(calc.body).toMatchObject({ senderAmountPush: '0.50', recipientAmountPush: '0.00', commissionAmountPush: '0.50' });
    const before = await operationsFrom(a.serial);
    expectError(await transfer(world.server, alice.token, a.serial, b.serial, '0.49'), 409, 'exception.commission.exceeds_amount');
    expect(await operationsFrom(a.serial)).toBe(before);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('10.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('never lets a fee overdraw the payer: 409 and nothing written', async () => {
    const { alice, bob, a, b } = await pricedPair(percent('1'), '100.00');
    const before = await operationsFrom(a.serial);
    expectError(await transfer(world.server, alice.token, a.serial, b.serial, '100.00'), 409, 'exception.coin.insufficient_funds');
    expectError(await transfer(world.server, alice.token, a.serial, b.serial, '99.02'), 409, 'exception.coin.insufficient_funds');
    expect(await operationsFrom(a.serial)).toBe(before);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('100.00');
    // 99.01 + 0.99 (1 % of 99.01 is 0.9901) is exactly what the coin holds.
    expectStatus(await transfer(world.server, alice.token, a.serial, b.serial, '99.01'), 201);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('0.00');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('99.01');
  });

  it('prices each amount by the condition whose range holds it (begin inclusive, end exclusive)', async () => {
    const { alice, a, b } = await pricedPair(
      [
        { beginAmount: '0', endAmount: '100', commission: { type: 'fixed', valueFixed: '1' } },
        { beginAmount: '100', endAmount: '1000', commission: { type: 'percent', valuePercent: '0.5' } },
        { beginAmount: '1000', commission: { type: 'zero' } },
      ],
      '3000.00',
    );
    const fee = async (amount: string) => (await transfer(world.server, alice.token, a.serial, b.serial, amount)).body.process.commission;
    expect(await fee('99.99')).toBe('1.00');
    expect(await fee('100.00')).toBe('0.50');
    expect(await fee('999.99')).toBe('5.00');
    expect(await fee('1000.00')).toBe('0.00');
  });

  it('applies only an active rule of an active profile whose dates hold now', async () => {
    const alice = await world.user();
    const contract = await aContract(world.server, world.admin);
    const profile = await aProfile(world.server, world.admin, contract.id, world.issuer.id);
    await assignContract(world.server, world.admin, alice.organizationId, contract.id);
    const [a, b] = await world.pair(alice, await world.user(), '100.00');
    const fee = async () => (await transfer(world.server, alice.token, a.serial, b.serial, '10.00')).body.process.commission;
    const conditions = percent('10');
    await aRule(world.server, world.admin, contract.id, profile.id, {
      beginDate: '2020-01-01T00:00:00Z',
      endDate: '2021-01-01T00:00:00Z',
      conditions,
    });
    await aRule(world.server, world.admin, contract.id, profile.id, { beginDate: '2099-01-01T00:00:00Z', conditions });
    const current = await aRule(world.server, world.admin, contract.id, profile.id, {
      beginDate: '2021-01-01T00:00:00Z',
      endDate: '2099-01-01T00:00:00Z',
      active: false,
      conditions,
    });
    expect(await fee()).toBe('0.00');
    const rules = `/api/v1/contracts/${contract.id}/commission-profiles/${profile.id}`;
    expectStatus(
      await world.server.request('PATCH', `${rules}/commission-rule/${current.id}`, { token: world.admin, body: { active: true } }),
      200,
    );
    expect(await fee()).toBe('1.00');
    expectStatus(await world.server.request('PATCH', rules, { token: world.admin, body: { active: false } }), 200);
    expect(await fee()).toBe('0.00');
    expectStatus(await world.server.request('PATCH', rules, { token: world.admin, body: { active: true } }), 200);
    // Back to the default contract, which charges nothing.
    await assignContract(world.server, world.admin, alice.organizationId, '00000000-0000-4000-8000-000000000101');
    expect(await fee()).toBe('0.00');
  });

  it('charges bank top-ups under the credited organization’s contract', async () => {
    const bob = await world.user({ role: 'merchant' });
    await aFee(world.server, world.admin, {
      organizationId: bob.organizationId,
      organizationType: 'merchant',
      issuerId: world.issuer.id,
      flow: 'bank_topup',
      conditions: percent('2'),
      payer: 'recipient',
    });
    const coin = await aCoin(world.server, bob.token, world.issuer.id);
    const collector = (await commissionCoin()).serial;
    const calculate = (body: Record<string, unknown>, token = world.admin) =>
      world.server.request('POST', '/api/v1/bank-top-ups/calculate', { token, body });
    const priced = await calculate({ coinSerial: coin.serial, amount: '100.00' });
    expectStatus(priced, 200);
    expect(priced.body).toMatchObject({
      transactionAmount: '100.00',
      senderAmountPush: '100.00',
      recipientAmountPush: '98.00',
      commissionAmountPush: '2.00',
      paymentToolDetails: { srcValue: null, destValue: coin.serial },
    });
    expectError(await calculate({ coinSerial: collector, amount: '1.00' }), 400, 'exception.validation', 'coinSerial');
    expectError(await calculate({ coinSerial: '999999999999', amount: '1.00' }), 404, 'exception.coin.not_found');
    // Since issue 12 a client calculates the top-ups it may request, of its own coins only (another organization's: 404).
    const own = await calculate({ coinSerial: coin.serial, amount: '100.00' }, bob.token);
    expectStatus(own, 200);
    expect(own.body).toMatchObject({ recipientAmountPush: '98.00', commissionAmountPush: '2.00' });
    const outsider = await world.user();
    expectError(await calculate({ coinSerial: coin.serial, amount: '1.00' }, outsider.token), 404, 'exception.coin.not_found');
    expectError(
      await world.server.request('POST', '/api/v1/bank-top-ups', { token: world.admin, body: { coinSerial: collector, amount: '1.00' } }),
      400,
      'exception.validation',
      'coinSerial',
    );
    const process = await fund(world.server, world.admin, coin.serial, '100.00');
    expect(process).toMatchObject({ type: 'bank_topup', amount: '100.00', commission: '2.00' });
    expectLegs(process, [
      [process.from.serial, coin.serial, '98.00'],
      [process.from.serial, collector, '2.00'],
    ]);
    expect(await balanceOf(world.server, bob.token, coin.serial)).toBe('98.00');
    // Sender pays: the bank's wire carried amount + fee.
    const carol = await world.user();
    await aFee(world.server, world.admin, {
      organizationId: carol.organizationId,
      issuerId: world.issuer.id,
      flow: 'bank_topup',
      conditions: percent('2'),
    });
    const other = await aCoin(world.server, carol.token, world.issuer.id);
    const paid = await fund(world.server, world.admin, other.serial, '50.00');
    expectLegs(paid, [
      [paid.from.serial, other.serial, '50.00'],
      [paid.from.serial, collector, '1.00'],
    ]);
    expect(await balanceOf(world.server, carol.token, other.serial)).toBe('50.00');
    // A transfer rule of the same contract does not price top-ups, nor a top-up rule transfers.
    const calc = await world.server.request('POST', '/api/v1/commissions/calculate', {
      token: world.admin,
      body: { flow: 'bank_topup', payeeCoin: other.serial, amount: '50.00' },
    });
    expect(calc.body).toMatchObject({ commission: '1.00', payerAmount: '51.00', payeeAmount: '50.00', senderAmountPush: '51.00' });
    expect(calc.body.paymentToolDetails).toMatchObject({ srcValue: null, destValue: other.serial });
    await expectBalancedLedger(world.server, world.admin);
  });

  it('rounds half up to the currency’s decimals at fractions 1 and 10^18', async () => {
    for (const [fraction, conditions, funds, amount, expected] of [
      // 2.5 % of 20 units is 0.5: one unit
      [1, percent('2.5'), '100', '20', 1],
      [1, percent('2.5'), '100', '19', 0],
      ['1000000000000000000', percent('50'), '1', '0.000000000000000001', '0.000000000000000001'],
      [
        '1000000000000000000',
        [{ commission: { type: 'fixed_and_percent', valuePercent: '1', valueFixed: '0.000000000000000001' } }],
        '1',
        '0.000000000000000150',
        '0.000000000000000003',
      ],
    ] as const) {
      const issuer = await anIssuer(world.server, world.admin, (await aCurrency(world.server, world.admin, { fraction })).code);
      const alice: Actor = await world.user();
      await aFee(world.server, world.admin, { organizationId: alice.organizationId, issuerId: issuer.id, conditions: [...conditions] });
      const a = await aCoin(world.server, alice.token, issuer.id);
      const b = await aCoin(world.server, (await world.user()).token, issuer.id);
      await fund(world.server, world.admin, a.serial, funds);
      const response = await transfer(world.server, alice.token, a.serial, b.serial, amount);
      expectStatus(response, 201);
      expect({ fraction, amount, commission: response.body.process.commission }).toEqual({ fraction, amount, commission: expected });
    }
    await expectBalancedLedger(world.server, world.admin);
  });

  it('rounds a fee up, or to a minimum fee, when its rule says so: splitting a payment cannot escape it (issue 29)', async () => {
    const up = await pricedPair([{ beginAmount: '0', commission: { type: 'percent', valuePercent: '1', rounding: 'up' } }]);
    expect(up.fee.rule.conditions[0].commission).toEqual({
      type: 'percent',
      valuePercent: 1,
      valueFixed: null,
      rounding: 'up',
      minFee: null,
    });
    const calculate = (pair: { alice: Actor; a: { serial: string }; b: { serial: string } }, amount: string) =>
      world.server.request('POST', '/api/v1/transfers/calculate', {
        token: pair.alice.token,
        body: { paymentTool: { type: 'COIN', srcValue: pair.a.serial, destValue: pair.b.serial }, amount },
      });
    // 1 % of 0.49 is 0.0049: a cent up (nothing half up); 1 % of 100.00 is 1.00 either way.
    expect((await calculate(up, '0.49')).body).toMatchObject({ commission: '0.01', payerAmount: '0.50' });
    expect((await calculate(up, '100.00')).body).toMatchObject({ commission: '1.00', payerAmount: '101.00' });
    const before = await commissionCoin();
    for (let i = 0; i < 100; i++) {
      const response = await transfer(world.server, up.alice.token, up.a.serial, up.b.serial, '0.01');
      expectStatus(response, 201);
      expect(response.body.process.commission).toBe('0.01');
    }
    expect(await balanceOf(world.server, up.alice.token, up.a.serial)).toBe('198.00');
    expect(await balanceOf(world.server, up.bob.token, up.b.serial)).toBe('1.00');
    expect(new Dec((await commissionCoin()).balance).minus(before.balance).toFixed(2)).toBe('1.00');

    // Half up (the default) with a minimum fee of 0.05: the larger of 1 % and 0.05.
    const least = await pricedPair([{ beginAmount: '0', commission: { type: 'percent', valuePercent: '1', minFee: '0.05' } }]);
    expect(least.fee.rule.conditions[0].commission).toEqual({
      type: 'percent',
      valuePercent: 1,
      valueFixed: null,
      rounding: 'half_up',
      minFee: '0.05',
    });
    expect((await calculate(least, '0.49')).body).toMatchObject({ commission: '0.05', payerAmount: '0.54' });
    expect((await calculate(least, '100.00')).body).toMatchObject({ commission: '1.00', payerAmount: '101.00' });
    const general = await world.server.request('POST', '/api/v1/commissions/calculate', {
      token: world.admin,
      body: { flow: 'client_transaction_transfer', payerCoin: least.a.serial, payeeCoin: least.b.serial, amount: '3.00' },
    });
    expect(general.body).toMatchObject({ commission: '0.05', payerAmount: '3.05', ruleId: least.fee.rule.id });
    const posted = await transfer(world.server, least.alice.token, least.a.serial, least.b.serial, '0.49');
    expectStatus(posted, 201);
    expect(posted.body.process).toMatchObject({ amount: '0.49', commission: '0.05' });
    expect(await balanceOf(world.server, least.alice.token, least.a.serial)).toBe('199.46');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('reverses a transfer with its fee', async () => {
    const { alice, a, b } = await pricedPair(percent('1'), '50.00');
    const collector = await commissionCoin();
    const posted = (await transfer(world.server, alice.token, a.serial, b.serial, '20.00')).body.process;
    const reversed = await world.server.request('POST', `/api/v1/transactions/${posted.id}/reverse`, { token: world.admin, body: {} });
    expectStatus(reversed, 201);
    expectLegs(reversed.body.process, [
      [b.serial, a.serial, '20.00'],
      [collector.serial, a.serial, '0.20'],
    ]);
    // Each leg says what it is: the fee's, and on the reversal the fee given back.
    expect(posted.transactions.map((t: { type: string }) => t.type)).toEqual(['transfer', 'commission']);
    expect(reversed.body.process.transactions.map((t: { type: string }) => t.type)).toEqual(['reversal', 'commission_reversal']);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('50.00');
    expect((await commissionCoin()).balance).toBe(collector.balance);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('never overdraws a coin under 50 parallel transfers with fees', async () => {
    const { alice, bob, a, b } = await pricedPair(percent('1'), '100.00');
    const before = await commissionCoin();
    const responses = await Promise.all(Array.from({ length: 50 }, () => transfer(world.server, alice.token, a.serial, b.serial, '10.00')));
    const statuses = responses.map((r) => r.status);
    // Each costs 10.10: nine fit in 100.00.
    expect(statuses.filter((s) => s === 201)).toHaveLength(9);
    expect(statuses.filter((s) => s === 409)).toHaveLength(41);
    for (const r of responses.filter((x) => x.status === 409)) expect(r.body.code).toBe('exception.coin.insufficient_funds');
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('9.10');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('90.00');
    expect(new Dec((await commissionCoin()).balance).minus(before.balance).toFixed(2)).toBe('0.90');
    const { rows } = await world.server.db.query('SELECT min(balance)::text AS lowest FROM coins WHERE serial = $1', [a.serial]);
    expect(new Dec(rows[0].lowest).isNegative()).toBe(false);
    await expectBalancedLedger(world.server, world.admin);
  });
});
