import { aContract, aProfile, assignContract, usageOf } from '../helpers/commissions';
import { balanceOf, expectBalancedLedger, expectError, expectStatus, transfer } from '../helpers/money';
import { aGate } from '../helpers/gates';
import { within } from '../helpers/server';
import { moneyWorld } from '../helpers/world';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

/**
 * Issue 32: the limit tabs of the client's contract screens (commission profiles and gate commission profiles), and the
 * kernel rule behind them: every priced operation answers to the limits of the profile that prices it (409 naming the
 * limit), counted per organization and period in the transaction that moves the money.
 */
describe('family client: limit profiles (issue 32)', () => {
  const world = moneyWorld();
  const req = (method: string, path: string, token: string, body?: unknown) =>
    world.server.request(method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });

  /** A contract of its own for a new individual, with a commission profile (no rule: transfers are free) for transfers. */
  const limitedUser = async () => {
    const user = await world.user();
    const contract = await aContract(world.server, world.admin);
    const profile = await aProfile(world.server, world.admin, contract.id, world.issuer.id);
    await assignContract(world.server, world.admin, user.organizationId, contract.id);
    return { user, contract, profile, base: `/contracts/${contract.id}/commission-profiles/${profile.id}/limit-profiles` };
  };

  /** The limits form's create body on the commission profile screen: the client deletes txType and productId. */
  const limitBody = (qualifier: string, timeUnit: string, value: string | number) => ({ qualifier, timeUnit, value, active: true });

  const actionsOf = async (kind: string, limitProfileId: string) =>
    (
      await world.server.db.query(
        `SELECT user_id::text, details FROM user_actions WHERE action = $1 AND details->>'limitProfileId' = $2 ORDER BY created_at`,
        [kind, limitProfileId],
      )
    ).rows;

  const operationsFrom = async (serial: string): Promise<number> =>
    (await world.server.db.query('SELECT count(*)::int AS n FROM operations WHERE from_coin = $1', [serial])).rows[0].n;

  it('POST /contracts/{contractId}/commission-profiles/{profileId}/limit-profiles — the limits form creates a limit, in the action log', async () => {
    const { base, profile, contract } = await limitedUser();
    const created = await req('POST', base, world.admin, limitBody('amount', 'per_day', '150'));
    expectStatus(created, 201);
    expect(created.body.limitProfile).toMatchObject({
      id: expect.any(String),
      profileId: profile.id,
      gateProfileId: null,
      txType: null,
      qualifier: 'amount',
      timeUnit: 'per_day',
      value: '150.00',
      active: true,
    });
    const [action] = await actionsOf('limit_profile_created', created.body.limitProfile.id);
    expect(action.details).toMatchObject({
      contractId: contract.id,
      profileId: profile.id,
      qualifier: 'amount',
      timeUnit: 'per_day',
      value: '150.00',
    });
    expect(action.user_id).toEqual(expect.any(String));

    // One limit of a kind per profile; a count of one operation means nothing; the gate's fields are not the profile's.
    expectError(await req('POST', base, world.admin, limitBody('amount', 'per_day', '10')), 409, 'exception.limit_profile.exists');
    expectError(await req('POST', base, world.admin, limitBody('quantity', 'per_transaction', 3)), 400, 'exception.validation', 'timeUnit');
    expectError(await req('POST', base, world.admin, limitBody('quantity', 'per_day', '2.5')), 400, 'exception.validation', 'value');
    expectError(await req('POST', base, world.admin, limitBody('amount', 'per_month', '1.001')), 400, 'exception.validation', 'value');
    expectError(await req('POST', base, world.admin, limitBody('amount', 'per_month', '-1')), 400, 'exception.validation', 'value');
    expectError(await req('POST', base, world.admin, limitBody('amount', 'per_fortnight', '1')), 400, 'exception.validation');
    expectError(await req('POST', base, world.admin, { ...limitBody('amount', 'per_week', '1'), txType: 'TOPUP' }), 400);
    expectError(
      await req(
        'POST',
        `/contracts/${contract.id}/commission-profiles/${UNKNOWN}/limit-profiles`,
        world.admin,
        limitBody('amount', 'per_week', 1),
      ),
      404,
      'exception.commission.profile_not_found',
    );
    expectError(
      await req(
        'POST',
        `/contracts/${UNKNOWN}/commission-profiles/${profile.id}/limit-profiles`,
        world.admin,
        limitBody('amount', 'per_week', 1),
      ),
      404,
      'exception.contract.not_found',
    );
    const listed = await req('GET', base, world.admin);
    expect(listed.body.records).toHaveLength(1);
  });

  it('GET /contracts/{contractId}/commission-profiles/{profileId}/limit-profiles — the limits tab reads qualifier, value, timeUnit and active', async () => {
    const { base } = await limitedUser();
    expectStatus(await req('POST', base, world.admin, limitBody('amount', 'per_transaction', 50)), 201);
    expectStatus(await req('POST', base, world.admin, limitBody('quantity', 'per_day', '3')), 201);
    const listed = await req('GET', base, world.admin);
    expectStatus(listed, 200);
    expect(listed.body.records.map((r: any) => [r.qualifier, r.timeUnit, String(r.value), r.active])).toEqual([
      ['amount', 'per_transaction', '50.00', true],
      ['quantity', 'per_day', '3', true],
    ]);
    for (const record of listed.body.records) expect(record).toMatchObject({ id: expect.any(String), createdAt: expect.any(String) });
    const accountant = await world.user({ role: 'accountant' });
    expectStatus(await req('GET', base, accountant.token), 200);
    expectError(await req('POST', base, accountant.token, limitBody('amount', 'per_year', 1)), 403);
  });

  it('PATCH /contracts/{contractId}/commission-profiles/{profileId}/limit-profiles/{limitId} — the edit form changes value and active, in the action log', async () => {
    const { base, user } = await limitedUser();
    const [a, b] = await world.pair(user, await world.user(), '100.00');
    const limit = (await req('POST', base, world.admin, limitBody('amount', 'per_transaction', '5'))).body.limitProfile;
    expectError(await transfer(world.server, user.token, a.serial, b.serial, '6.00'), 409, 'exception.limit.exceeded');

    const changed = await req('PATCH', `${base}/${limit.id}`, world.admin, { active: true, value: '10' });
    expectStatus(changed, 200);
    expect(changed.body.limitProfile).toMatchObject({ id: limit.id, value: '10.00', active: true, qualifier: 'amount' });
    expectStatus(await transfer(world.server, user.token, a.serial, b.serial, '6.00'), 201);

    const off = await req('PATCH', `${base}/${limit.id}`, world.admin, { active: false, value: 10 });
    expect(off.body.limitProfile).toMatchObject({ active: false, value: '10.00' });
    expectStatus(await transfer(world.server, user.token, a.serial, b.serial, '50.00'), 201);

    const [action] = await actionsOf('limit_profile_changed', limit.id);
    expect(action.details).toMatchObject({ value: '10.00', active: true, before: { value: '5.00', active: true } });
    expect(await actionsOf('limit_profile_changed', limit.id)).toHaveLength(2);

    expectError(
      await req('PATCH', `${base}/${UNKNOWN}`, world.admin, { active: true, value: 1 }),
      404,
      'exception.limit_profile.not_found',
    );
    expectError(await req('PATCH', `${base}/${limit.id}`, world.admin, { active: 'yes', value: 1 }), 400);
    expectError(
      await req('PATCH', `${base}/${limit.id}`, world.admin, { active: true, value: '1.234' }),
      400,
      'exception.validation',
      'value',
    );
    expect((await req('GET', base, world.admin)).body.records[0]).toMatchObject({ value: '10.00', active: false });
  });

  describe('the kernel enforces them on priced flows', () => {
    it('refuses a transfer over the amount of one operation with a 409 naming the limit, and changes nothing', async () => {
      const { base, user } = await limitedUser();
      const [a, b] = await world.pair(user, await world.user(), '100.00');
      await req('POST', base, world.admin, limitBody('amount', 'per_transaction', '20'));
      const refused = await transfer(world.server, user.token, a.serial, b.serial, '20.01');
      expectError(refused, 409, 'exception.limit.exceeded');
      expect(refused.body.message).toContain(`20.00 ${world.currency.code} per operation`);
      expect(await balanceOf(world.server, user.token, a.serial)).toBe('100.00');
      expect(await operationsFrom(a.serial)).toBe(0);
      // A calculation moves nothing and is not refused; exactly the limit passes.
      const calculated = await req('POST', '/transfers/calculate', user.token, {
        paymentTool: { type: 'COIN', srcValue: a.serial, destValue: b.serial },
        amount: '25.00',
      });
      expectStatus(calculated, 200);
      expectStatus(await transfer(world.server, user.token, a.serial, b.serial, '20.00'), 201);
    });

    it('counts the amount per day and the count per day of the organization; refusals count nothing', async () => {
      const { base, user } = await limitedUser();
      const [a, b] = await world.pair(user, await world.user(), '100.00');
      await req('POST', base, world.admin, limitBody('amount', 'per_day', '30'));
      expectStatus(await req('POST', base, world.admin, limitBody('quantity', 'per_day', 2)), 201);
      expectStatus(await transfer(world.server, user.token, a.serial, b.serial, '20.00'), 201);
      const over = await transfer(world.server, user.token, a.serial, b.serial, '10.01');
      expectError(over, 409, 'exception.limit.exceeded');
      expect(over.body.message).toBe(
        `The limit of 30.00 ${world.currency.code} per day is exceeded: 20.00 ${world.currency.code} used, 10.01 ${world.currency.code} asked`,
      );
      // A second coin of the same organization shares the organization's limits.
      const second = await world.coin(user, '50.00');
      expectStatus(await transfer(world.server, user.token, second.serial, b.serial, '5.00'), 201);
      const third = await transfer(world.server, user.token, a.serial, b.serial, '5.00');
      expectError(third, 409, 'exception.limit.exceeded');
      expect(third.body.message).toBe('The limit of 2 operations per day is reached (2 made)');
      expectStatus(await transfer(world.server, user.token, a.serial, b.serial, '5.00'), 409);
      expect(await balanceOf(world.server, user.token, a.serial)).toBe('80.00');
      const usage = await world.server.db.query(
        `SELECT l.qualifier, u.amount::text, u.count, u.period_start = date_trunc('day', now() AT TIME ZONE 'UTC') AS today
           FROM limit_usage u JOIN limit_profiles l ON l.id = u.limit_profile_id
          WHERE u.organization_id = $1 ORDER BY l.qualifier`,
        [user.organizationId],
      );
      expect(usage.rows).toEqual([
        { qualifier: 'amount', amount: '25.000000000000000000', count: 2, today: true },
        { qualifier: 'quantity', amount: '25.000000000000000000', count: 2, today: true },
      ]);
    });

    it('holds a bank top-up to the limits of the payee organization’s bank_topup profile, whether posted or accepted', async () => {
      const user = await world.user();
      const contract = await aContract(world.server, world.admin);
      const profile = await aProfile(world.server, world.admin, contract.id, world.issuer.id, 'bank_topup');
      await assignContract(world.server, world.admin, user.organizationId, contract.id);
      const base = `/contracts/${contract.id}/commission-profiles/${profile.id}/limit-profiles`;
      expectStatus(await req('POST', base, world.admin, limitBody('amount', 'per_month', '100')), 201);
      const coin = await world.coin(user);
      const topUp = (amount: string) => req('POST', '/bank-top-ups', world.admin, { coinSerial: coin.serial, amount });
      expectStatus(await topUp('60.00'), 201);
      const refused = await topUp('50.00');
      expectError(refused, 409, 'exception.limit.exceeded');
      expect(refused.body.message).toContain(`100.00 ${world.currency.code} per month`);
      const request = async (amount: string) => {
        const created = await req('POST', '/bank-top-ups/create-request', user.token, {
          coinSerial: coin.serial,
          amount,
          fullName: 'Ann Lee',
        });
        expectStatus(created, 201);
        return created.body.bankTopUp.id;
      };
      expectStatus(await req('POST', `/bank-top-ups/${await request('40.00')}/accept`, world.admin), 200);
      const over = await request('0.01');
      expectError(await req('POST', `/bank-top-ups/${over}/accept`, world.admin), 409, 'exception.limit.exceeded');
      expect((await req('GET', `/bank-top-ups/${over}`, user.token)).body.bankTopUp.status).toBe('new');
      expect(await balanceOf(world.server, user.token, coin.serial)).toBe('100.00');
    });

    it('refuses a transfer refused for funds without counting it', async () => {
      const { base, user } = await limitedUser();
      const [a, b] = await world.pair(user, await world.user(), '20.00');
      await req('POST', base, world.admin, limitBody('quantity', 'per_month', 1));
      expectError(await transfer(world.server, user.token, a.serial, b.serial, '50.00'), 409, 'exception.coin.insufficient_funds');
      expectStatus(await transfer(world.server, user.token, a.serial, b.serial, '10.00'), 201);
      expectError(await transfer(world.server, user.token, a.serial, b.serial, '0.01'), 409, 'exception.limit.exceeded');
    });
  });

  describe('issue 43: a limit counts what was moved', () => {
    const reverse = (id: string) => req('POST', `/transactions/${id}/reverse`, world.admin, {});

    it('a reversal gives back what its operation counted, once, to the period it was counted in — a day since past, or the organization’s life', async () => {
      const { base, user } = await limitedUser();
      const [a, b] = await world.pair(user, await world.user(), '200.00');
      const day = (await req('POST', base, world.admin, limitBody('amount', 'per_day', '30'))).body.limitProfile;
      expectStatus(await req('POST', base, world.admin, limitBody('quantity', 'per_life', 2)), 201);
      const first = await transfer(world.server, user.token, a.serial, b.serial, '20.00');
      expectStatus(first, 201);
      expectError(await transfer(world.server, user.token, a.serial, b.serial, '10.01'), 409, 'exception.limit.exceeded');
      expectStatus(await reverse(first.body.process.id), 201);
      // Reversed, the 20.00 moved nothing: the day's whole 30.00 is free, and the life's count is back to 0.
      const second = await transfer(world.server, user.token, a.serial, b.serial, '30.00');
      expectStatus(second, 201);
      expectError(await reverse(first.body.process.id), 409, 'exception.transaction.already_reversed');
      const usage = async () =>
        Object.fromEntries(
          (await usageOf(world.server.db, user.organizationId)).map((u) => [
            `${u.limitProfileId === day.id ? 'day' : 'life'} ${u.periodStart.slice(0, 10)}`,
            [u.amount, u.count],
          ]),
        );
      const today = new Date().toISOString().slice(0, 10);
      expect(await usage()).toEqual({ [`day ${today}`]: ['30', 1], 'life 1970-01-01': ['30', 1] });

      // As if the 30.00 had been counted yesterday: its day's row, and what the operation counted into it, a day back.
      await world.server.db.query(
        `WITH moved AS (UPDATE limit_usage SET period_start = period_start - interval '1 day'
                         WHERE organization_id = $1 AND limit_profile_id = $2 RETURNING 1)
         UPDATE limit_usage_entries SET period_start = period_start - interval '1 day'
          WHERE organization_id = $1 AND limit_profile_id = $2`,
        [user.organizationId, day.id],
      );
      const yesterday = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10);
      expectStatus(await transfer(world.server, user.token, a.serial, b.serial, '5.00'), 201);
      expect(await usage()).toEqual({ [`day ${yesterday}`]: ['30', 1], [`day ${today}`]: ['5', 1], 'life 1970-01-01': ['35', 2] });
      // Reversed today, the 30.00 is given back to yesterday's row; today's counts only today's 5.00.
      expectStatus(await reverse(second.body.process.id), 201);
      expect(await usage()).toEqual({ [`day ${yesterday}`]: ['0', 0], [`day ${today}`]: ['5', 1], 'life 1970-01-01': ['5', 1] });
      expect(await balanceOf(world.server, user.token, a.serial)).toBe('195.00');
      await expectBalancedLedger(world.server, world.admin);
    });

    it('a gate payment its provider refuses gives back what its hold counted', async () => {
      const { product } = await aGate(world.server, world.admin, {
        type: 'billing',
        name: 'Billing',
        settings: { secret: 'limits-billing-secret-01', failAbove: '100.00' },
        product: 'Utilities',
        currency: world.currency.code,
        maxAmount: '500.00',
      });
      const { user: hal, coin } = await world.customer('300.00', {
        flow: 'gate_payment',
        limits: [
          ['quantity', 'per_day', 1],
          ['amount', 'per_week', '200.00'],
        ],
      });
      const pay = (amount: string) =>
        req('POST', '/gate/transactions', hal.token, {
          productId: product.id,
          coinSerial: coin.serial,
          amount,
          type: 'payment',
        });
      const ended = async (id: string) => {
        let transaction: { status: string; operationId: string } | undefined;
        await within(60_000, async () => {
          transaction = (await req('GET', `/gate/transactions/${id}`, hal.token)).body.transaction;
          return transaction!.status === 'processed' || transaction!.status === 'failure';
        });
        return transaction!;
      };
      const refused = await pay('150.00');
      expectStatus(refused, 201);
      expect(await ended(refused.body.transaction.id)).toMatchObject({ status: 'failure' });
      const paid = await pay('90.00');
      expectStatus(paid, 201);
      expect(await ended(paid.body.transaction.id)).toMatchObject({ status: 'processed' });
      expectError(await pay('1.00'), 409, 'exception.limit.exceeded');
      expect((await usageOf(world.server.db, hal.organizationId)).map(({ amount, count }) => [amount, count])).toEqual([
        ['90', 1],
        ['90', 1],
      ]);
      expect((await req('GET', `/coins/${coin.serial}`, hal.token)).body.coin).toMatchObject({ amount: '210.00', heldAmount: '0.00' });
    });
  });

  it('POST /contracts/{id}/copy — copyLimits gives the copy’s commission profiles the original’s limits', async () => {
    const { base, contract } = await limitedUser();
    await req('POST', base, world.admin, limitBody('amount', 'per_week', '70'));
    const withLimits = await req('POST', `/contracts/${contract.id}/copy`, world.admin, { name: 'With limits', copyLimits: true });
    expectStatus(withLimits, 201);
    expect(withLimits.body).toMatchObject({ copiedProfiles: 1, copiedLimits: 1 });
    const copy = withLimits.body.contract.id;
    const [profile] = (await req('POST', `/contracts/${copy}/commission-profiles/view`, world.admin, {})).body.records;
    const copied = await req('GET', `/contracts/${copy}/commission-profiles/${profile.id}/limit-profiles`, world.admin);
    expect(copied.body.records).toEqual([
      expect.objectContaining({ qualifier: 'amount', timeUnit: 'per_week', value: '70.00', profileId: profile.id }),
    ]);

    const without = await req('POST', `/contracts/${contract.id}/copy`, world.admin, { name: 'Without limits', copyLimits: false });
    expectStatus(without, 201);
    const [bare] = (await req('POST', `/contracts/${without.body.contract.id}/commission-profiles/view`, world.admin, {})).body.records;
    expect(
      (await req('GET', `/contracts/${without.body.contract.id}/commission-profiles/${bare.id}/limit-profiles`, world.admin)).body.records,
    ).toEqual([]);
  });

  describe('gate commission profiles', () => {
    const gateProfile = async () => {
      const provider = await req('POST', '/gate-providers', world.admin, {
        name: `Acquirer ${Math.random().toString(36).slice(2, 8)}`,
        type: 'acquiring',
        settings: { secret: 'limits-acquirer-secret-01' },
      });
      expectStatus(provider, 201);
      const contract = await aContract(world.server, world.admin);
      const profile = await req('POST', `/contracts/${contract.id}/gate-commission-profiles`, world.admin, {
        gateProviderId: provider.body.gateProvider.id,
      });
      expectStatus(profile, 201);
      return {
        contract,
        profile: profile.body.profile,
        base: `/contracts/${contract.id}/gate-commission-profiles/${profile.body.profile.id}/limit-profiles`,
      };
    };

    /** The gate screen's create body: its transaction type, and productId null. */
    const gateBody = (txType: string, qualifier: string, timeUnit: string, value: string | number) => ({
      txType,
      productId: null,
      qualifier,
      timeUnit,
      value,
      active: true,
    });

    it('POST /contracts/{contractId}/gate-commission-profiles/{profileId}/limit-profiles — the gate screen creates a limit per transaction type', async () => {
      const { base, profile } = await gateProfile();
      const created = await req('POST', base, world.admin, gateBody('TOPUP', 'amount', 'per_day', '500'));
      expectStatus(created, 201);
      expect(created.body.limitProfile).toMatchObject({
        gateProfileId: profile.id,
        profileId: null,
        txType: 'TOPUP',
        qualifier: 'amount',
        timeUnit: 'per_day',
        value: 500,
        active: true,
      });
      expect(await actionsOf('limit_profile_created', created.body.limitProfile.id)).toHaveLength(1);
      expectStatus(await req('POST', base, world.admin, gateBody('REDEEM', 'amount', 'per_day', '500')), 201);
      expectError(await req('POST', base, world.admin, gateBody('TOPUP', 'amount', 'per_day', '1')), 409, 'exception.limit_profile.exists');
      expectError(await req('POST', base, world.admin, { ...gateBody('TOPUP', 'amount', 'per_week', '1'), productId: UNKNOWN }), 400);
      expectError(await req('POST', base, world.admin, gateBody('PAYOUT', 'amount', 'per_week', '1')), 400);
      expectError(
        await req('POST', base.replace(profile.id, UNKNOWN), world.admin, gateBody('TOPUP', 'amount', 'per_week', '1')),
        404,
        'exception.gate_commission_profile.not_found',
      );
    });

    it('GET /contracts/{contractId}/gate-commission-profiles/{profileId}/limit-profiles — the gate limits table reads txType, qualifier, value, timeUnit, active', async () => {
      const { base } = await gateProfile();
      await req('POST', base, world.admin, gateBody('REDEEM', 'quantity', 'per_month', 10));
      const listed = await req('GET', base, world.admin);
      expectStatus(listed, 200);
      expect(listed.body.records).toEqual([
        expect.objectContaining({
          txType: 'REDEEM',
          qualifier: 'quantity',
          timeUnit: 'per_month',
          value: 10,
          active: true,
          gateProfileId: expect.any(String),
        }),
      ]);
    });

    it('PATCH /contracts/{contractId}/gate-commission-profiles/{profileId}/limit-profiles/{limitId} — the gate edit form changes value and active', async () => {
      const { base } = await gateProfile();
      const limit = (await req('POST', base, world.admin, gateBody('TOPUP', 'amount', 'per_transaction', '100'))).body.limitProfile;
      const changed = await req('PATCH', `${base}/${limit.id}`, world.admin, { active: false, value: '250.5' });
      expectStatus(changed, 200);
      expect(changed.body.limitProfile).toMatchObject({ id: limit.id, txType: 'TOPUP', value: '250.5', active: false });
      expect(await actionsOf('limit_profile_changed', limit.id)).toHaveLength(1);
      expectError(
        await req('PATCH', `${base}/${UNKNOWN}`, world.admin, { active: true, value: 1 }),
        404,
        'exception.limit_profile.not_found',
      );
    });

    it('the kernel holds a TOPUP and a REDEEM to the limits of their gate commission profile; a refusal holds nothing', async () => {
      const gateOf = (type: string, name: string) =>
        aGate(world.server, world.admin, {
          type,
          name,
          settings: { secret: 'limits-gate-secret-001' },
          product: 'Card',
          currency: world.currency.code,
          fields: [{ name: 'card', type: 'string', required: false }],
        });
      const acquirer = await gateOf('acquiring', 'Top up');
      const payer = await gateOf('payout', 'Payout');
      const alice = await world.user();
      const contract = await aContract(world.server, world.admin);
      await assignContract(world.server, world.admin, alice.organizationId, contract.id);
      const limitsOf = async (providerId: string) => {
        const profile = await req('POST', `/contracts/${contract.id}/gate-commission-profiles`, world.admin, {
          gateProviderId: providerId,
        });
        return `/contracts/${contract.id}/gate-commission-profiles/${profile.body.profile.id}/limit-profiles`;
      };
      expectStatus(
        await req('POST', await limitsOf(acquirer.provider.id), world.admin, gateBody('TOPUP', 'amount', 'per_transaction', '30')),
        201,
      );
      expectStatus(await req('POST', await limitsOf(payer.provider.id), world.admin, gateBody('REDEEM', 'quantity', 'per_day', 1)), 201);
      const coin = await world.coin(alice, '100.00');
      const create = (type: string, gate: { provider: any; product: any }, amount: string) =>
        world.server.request('POST', '/api/v1/gate/transactions', {
          token: alice.token,
          body: { amount, coin: coin.serial, method: { gateProviderId: gate.provider.id, way: gate.product.name }, type },
          headers: { 'Idempotency-Key': `limits-${type}-${amount}-${Math.random()}` },
        });

      const topUp = await create('TOPUP', acquirer, '40.00');
      expectError(topUp, 409, 'exception.limit.exceeded');
      expect(topUp.body.message).toContain(`30.00 ${world.currency.code} per operation`);
      expectStatus(await create('TOPUP', acquirer, '30.00'), 201);

      expectStatus(await create('REDEEM', payer, '10.00'), 201);
      const second = await create('REDEEM', payer, '10.00');
      expectError(second, 409, 'exception.limit.exceeded');
      expect(second.body.message).toBe('The limit of 1 operation per day is reached (1 made)');
      expect((await req('GET', `/coins/${coin.serial}`, alice.token)).body.coin.availableAmount).toBe('90.00');
      // The limits are the gate's own: a transfer of the same organization is not counted or refused by them.
      const [, other] = await world.pair(await world.user(), await world.user(), '0');
      expectStatus(await transfer(world.server, alice.token, coin.serial, other.serial, '20.00'), 201);
    });

    it('issue 43: a TOPUP whose card the provider refuses to charge gives back what it counted', async () => {
      const { provider, product } = await aGate(world.server, world.admin, {
        type: 'acquiring',
        name: 'Acquirer',
        settings: { secret: 'limits-acquirer-secret-02', failAbove: '100.00' },
        product: 'Card',
        currency: world.currency.code,
      });
      const ivy = await world.user();
      const contract = await aContract(world.server, world.admin);
      await assignContract(world.server, world.admin, ivy.organizationId, contract.id);
      const profile = await req('POST', `/contracts/${contract.id}/gate-commission-profiles`, world.admin, {
        gateProviderId: provider.id,
      });
      const base = `/contracts/${contract.id}/gate-commission-profiles/${profile.body.profile.id}/limit-profiles`;
      expectStatus(await req('POST', base, world.admin, gateBody('TOPUP', 'quantity', 'per_day', 1)), 201);
      const coin = await world.coin(ivy);
      const topUp = async (amount: string) => {
        const created = await req('POST', '/gate/transactions', ivy.token, {
          amount,
          coin: coin.serial,
          method: { gateProviderId: provider.id, way: product.name },
          type: 'TOPUP',
        });
        if (created.status !== 201) return created;
        const id = created.body.transaction.id;
        expectStatus(await req('POST', `/gate/transactions/${id}/submit`, ivy.token, { optionName: 'default', fields: [] }), 200);
        let transaction: { status: string } | undefined;
        await within(60_000, async () => {
          transaction = (await req('GET', `/gate/transactions/${id}`, ivy.token)).body.transaction;
          return transaction!.status === 'processed' || transaction!.status === 'failure';
        });
        return { ...created, body: { transaction } };
      };
      expect((await topUp('150.00')).body.transaction).toMatchObject({ status: 'failure' });
      expect((await topUp('30.00')).body.transaction).toMatchObject({ status: 'processed' });
      expectError(await topUp('1.00'), 409, 'exception.limit.exceeded');
      expect(await balanceOf(world.server, ivy.token, coin.serial)).toBe('30.00');
    });
  });
});
