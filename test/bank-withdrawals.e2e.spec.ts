import { limitsOn, percent, usageOf } from './helpers/commissions';
import { coinOf, expectBalancedLedger, expectError, expectLegs, expectStatus } from './helpers/money';
import { moneyWorld } from './helpers/world';

const IBAN = 'DE89370400440532013000';
const details = { iban: 'DE89 3704 0044 0532 0130 00', bic: 'cobadeffxxx', accountHolder: 'Alice Liddell', bankName: 'Commerzbank' };

describe('bank withdrawals and bank accounts (issue 12): requests hold until accepted or declined', () => {
  const world = moneyWorld();
  const ask = (token: string, body: Record<string, unknown>) =>
    world.server.request('POST', '/api/v1/bank-withdrawals/create-request', { token, body });
  const decide = (id: string, decision: 'accept' | 'decline', token = world.admin) =>
    world.server.request('POST', `/api/v1/bank-withdrawals/${id}/${decision}`, {
      token,
      body: decision === 'decline' ? { reason: 'Account closed' } : undefined,
    });
  const amounts = async (token: string, serial: string) => {
    const coin = await coinOf(world.server, token, serial);
    return [coin.amount, coin.heldAmount, coin.availableAmount];
  };

  it('keeps an organization’s bank accounts, the IBAN’s check digits verified, another organization’s a 404', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const created = await world.server.request('POST', '/api/v1/bank-accounts', { token: alice.token, body: { ...details, name: 'Main' } });
    expectStatus(created, 201);
    expect(created.body.bankAccount).toEqual({
      id: expect.any(String),
      organizationId: alice.organizationId,
      name: 'Main',
      iban: IBAN,
      bic: 'COBADEFFXXX',
      accountHolder: 'Alice Liddell',
      bankName: 'Commerzbank',
      bankId: null,
      // Approved when added (BANK_ACCOUNTS_REQUIRE_APPROVAL is off), with who added it and the family's details (issue 32).
      status: 'APPROVED',
      userId: alice.id,
      details: {
        // The family's details: the account's id, its number (the IBAN) and its bank in the catalogue (issue 45).
        id: created.body.bankAccount.id,
        number: IBAN,
        bankId: null,
        bankAccountNumber: IBAN,
        iban: IBAN,
        fullName: 'Alice Liddell',
        bic: 'COBADEFFXXX',
        swift: 'COBADEFFXXX',
        name: 'Commerzbank',
        address: null,
      },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.bankAccount.id;
    expectError(
      await world.server.request('POST', '/api/v1/bank-accounts', { token: alice.token, body: details }),
      409,
      'exception.bank_account.iban_taken',
    );
    for (const iban of ['DE89370400440532013001', 'XX89370400440532013000', 'DE89', 'not an iban']) {
      expectError(
        await world.server.request('POST', '/api/v1/bank-accounts', { token: alice.token, body: { ...details, iban } }),
        400,
        'exception.validation',
        'iban',
      );
    }
    expectError(
      await world.server.request('POST', '/api/v1/bank-accounts', { token: alice.token, body: { ...details, bic: 'X' } }),
      400,
      'exception.validation',
      'bic',
    );
    // A bank of the catalog fills the BIC and the name.
    const bank = await world.server.request('POST', '/api/v1/bank-catalog', {
      token: world.admin,
      body: { bankName: 'Catalog Bank', bic: 'CTLGGB2L', country: 'GB' },
    });
    const fromCatalog = await world.server.request('POST', '/api/v1/bank-accounts', {
      token: alice.token,
      body: { iban: 'GB82WEST12345698765432', accountHolder: 'Alice', bankId: bank.body.bank.id },
    });
    expect(fromCatalog.body.bankAccount).toMatchObject({ bic: 'CTLGGB2L', bankName: 'Catalog Bank', bankId: bank.body.bank.id });
    expectError(
      await world.server.request('POST', '/api/v1/bank-accounts', {
        token: alice.token,
        body: { iban: 'NL91ABNA0417164300', accountHolder: 'A', bankId: '00000000-0000-4000-8000-00000000dead' },
      }),
      404,
      'exception.bank_catalog.not_found',
    );
    const changed = await world.server.request('PATCH', `/api/v1/bank-accounts/${id}`, { token: alice.token, body: { name: 'Salary' } });
    expectStatus(changed, 200);
    expect(changed.body.bankAccount).toMatchObject({ name: 'Salary', iban: IBAN });
    expectError(
      await world.server.request('PATCH', `/api/v1/bank-accounts/${id}`, { token: alice.token, body: {} }),
      400,
      'exception.validation',
      'body',
    );
    const list = await world.server.request('POST', '/api/v1/bank-accounts/view', { token: alice.token, body: { pageSize: 10 } });
    expect(list.body).toMatchObject({ totalRecords: 2 });
    // Bob sees and changes nothing of Alice's.
    expectError(
      await world.server.request('GET', `/api/v1/bank-accounts/${id}`, { token: bob.token }),
      404,
      'exception.bank_account.not_found',
    );
    expectError(
      await world.server.request('PATCH', `/api/v1/bank-accounts/${id}`, { token: bob.token, body: { name: 'x' } }),
      404,
      'exception.bank_account.not_found',
    );
    expectError(
      await world.server.request('DELETE', `/api/v1/bank-accounts/${id}`, { token: bob.token }),
      404,
      'exception.bank_account.not_found',
    );
    expect((await world.server.request('POST', '/api/v1/bank-accounts/view', { token: bob.token, body: {} })).body.totalRecords).toBe(0);
    expectStatus(await world.server.request('GET', `/api/v1/bank-accounts/${id}`, { token: alice.token }), 200);
    const removed = await world.server.request('DELETE', `/api/v1/bank-accounts/${id}`, { token: alice.token });
    expectStatus(removed, 200);
    expect(removed.body).toEqual({ status: 'ok', message: 'Bank account removed', id });
    expectError(
      await world.server.request('DELETE', `/api/v1/bank-accounts/${id}`, { token: alice.token }),
      404,
      'exception.bank_account.not_found',
    );
  });

  it('holds amount plus fee on request (held up, available down, balance unchanged); accept pays the settlement and commission coins in one operation', async () => {
    const { user: alice, coin } = await world.customer('100.00', { flow: 'bank_withdrawal', fee: percent('1') });
    const account = (await world.server.request('POST', '/api/v1/bank-accounts', { token: alice.token, body: details })).body.bankAccount;
    const calculated = await world.server.request('POST', '/api/v1/bank-withdrawals/calculate', {
      token: alice.token,
      body: { coinSerial: coin.serial, amount: '50.00', bankAccountId: account.id },
    });
    expectStatus(calculated, 200);
    expect(calculated.body).toMatchObject({ transactionAmount: '50.00', senderAmountPush: '50.50', commissionAmountPush: '0.50' });
    // An inactive coin is told at the calculation already, as the request would be.
    const idle = await world.coin(alice);
    expectStatus(await world.server.request('PATCH', `/api/v1/coins/${idle.serial}`, { token: alice.token, body: { active: false } }), 200);
    expectError(
      await world.server.request('POST', '/api/v1/bank-withdrawals/calculate', {
        token: alice.token,
        body: { coinSerial: idle.serial, amount: '1.00', bankAccountId: account.id },
      }),
      409,
      'exception.coin.inactive',
    );
    const requested = await ask(alice.token, {
      coinSerial: coin.serial,
      amount: '50.00',
      bankAccountId: account.id,
      customInformation: 'rent May',
    });
    expectStatus(requested, 201);
    expect(requested.body.bankWithdrawal).toMatchObject({
      kind: 'request',
      status: 'pending',
      amount: '50.00',
      commission: '0.50',
      bankAccountId: account.id,
      bankDetails: { iban: IBAN, bic: 'COBADEFFXXX', accountHolder: 'Alice Liddell', bankName: 'Commerzbank' },
      customInformation: 'rent May',
      operationId: requested.body.process.id,
    });
    expect(requested.body.process).toMatchObject({
      type: 'bank_withdrawal',
      status: 'pending',
      transactions: [],
      customInformation: 'rent May',
    });
    expect(await amounts(alice.token, coin.serial)).toEqual(['100.00', '50.50', '49.50']);

    const accepted = await decide(requested.body.bankWithdrawal.id, 'accept');
    expectStatus(accepted, 200);
    expect(accepted.body.process).toMatchObject({ id: requested.body.process.id, status: 'processed', commission: '0.50' });
    const settlement = accepted.body.process.to.serial;
    expectLegs(accepted.body.process, [
      [coin.serial, settlement, '50.00'],
      [coin.serial, expect.any(String) as unknown as string, '0.50'],
    ]);
    expect(accepted.body.bankWithdrawal).toMatchObject({ status: 'processed', decidedAt: expect.any(String) });
    expect(await amounts(alice.token, coin.serial)).toEqual(['49.50', '0.00', '49.50']);
    expectError(await decide(requested.body.bankWithdrawal.id, 'decline'), 409, 'exception.bank_withdrawal.decided');
    const recorded = await world.raw.db.query(`SELECT action FROM user_actions WHERE details->>'bankWithdrawalId' = $1`, [
      requested.body.bankWithdrawal.id,
    ]);
    expect(recorded.rows).toEqual([{ action: 'bank_withdrawal_accepted' }]);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('releases the hold on decline, and a coin with a hold cannot be closed', async () => {
    const bob = await world.user();
    const coin = await world.coin(bob, '30.00');
    const other = await world.coin(bob);
    const requested = await ask(bob.token, { coinSerial: coin.serial, amount: '20.00', bankDetails: details });
    expectStatus(requested, 201);
    expect(await amounts(bob.token, coin.serial)).toEqual(['30.00', '20.00', '10.00']);
    expectError(
      await world.server.request('POST', `/api/v1/close/coin/${coin.serial}`, {
        token: bob.token,
        body: { transferToCoinSerial: other.serial },
      }),
      409,
      'exception.coin.pending_requests',
    );
    // Only what is available can be held again.
    expectError(
      await ask(bob.token, { coinSerial: coin.serial, amount: '10.01', bankDetails: details }),
      409,
      'exception.coin.insufficient_funds',
    );
    const declined = await decide(requested.body.bankWithdrawal.id, 'decline');
    expectStatus(declined, 200);
    expect(declined.body.bankWithdrawal).toMatchObject({ status: 'declined', declineReason: 'Account closed' });
    expect(declined.body.process).toMatchObject({ status: 'declined', transactions: [] });
    expect(await amounts(bob.token, coin.serial)).toEqual(['30.00', '0.00', '30.00']);
    expectError(await decide(requested.body.bankWithdrawal.id, 'accept'), 409, 'exception.bank_withdrawal.decided');
    expectStatus(
      await world.server.request('POST', `/api/v1/close/coin/${coin.serial}`, {
        token: bob.token,
        body: { transferToCoinSerial: other.serial },
      }),
      200,
    );
    await expectBalancedLedger(world.server, world.admin);
  });

  it('issue 43: a declined request gives back what it counted against the coin’s limits; an accepted one keeps counting', async () => {
    const gil = await world.user();
    const coin = await world.coin(gil, '300.00');
    const { limits } = await limitsOn(world.server, world.admin, {
      organizationId: gil.organizationId,
      issuerId: world.issuer.id,
      flow: 'bank_withdrawal',
      limits: [
        ['amount', 'per_month', '100.00'],
        ['quantity', 'per_day', 1],
      ],
    });
    const request = (amount: string) => ask(gil.token, { coinSerial: coin.serial, amount, bankDetails: details });
    const first = await request('80.00');
    expectStatus(first, 201);
    // Held, the request counts: a second one today is refused.
    expectError(await request('5.00'), 409, 'exception.limit.exceeded');
    expectStatus(await decide(first.body.bankWithdrawal.id, 'decline'), 200);
    const usage = await usageOf(world.server.db, gil.organizationId);
    expect(usage.map(({ amount, count }) => ({ amount, count }))).toEqual([
      { amount: '0', count: 0 },
      { amount: '0', count: 0 },
    ]);
    expect(usage.map((u) => u.limitProfileId).sort()).toEqual(limits.map((l) => l.id).sort());
    // The month's whole 100.00 is free again; accepted, it counts for good.
    const second = await request('100.00');
    expectStatus(second, 201);
    expectStatus(await decide(second.body.bankWithdrawal.id, 'accept'), 200);
    expectError(await decide(first.body.bankWithdrawal.id, 'decline'), 409, 'exception.bank_withdrawal.decided');
    expect((await usageOf(world.server.db, gil.organizationId)).map(({ amount, count }) => ({ amount, count }))).toEqual([
      { amount: '100', count: 1 },
      { amount: '100', count: 1 },
    ]);
    expect(await amounts(gil.token, coin.serial)).toEqual(['200.00', '0.00', '200.00']);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('holds exactly 5 of 20 parallel requests from a coin with room for 5, and never lets available go below zero', async () => {
    const carol = await world.user();
    const coin = await world.coin(carol, '50.00');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => ask(carol.token, { coinSerial: coin.serial, amount: '10.00', bankDetails: details })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'exception.coin.insufficient_funds')).toBe(true);
    expect(results.filter((r) => r.status === 409)).toHaveLength(15);
    expect(await amounts(carol.token, coin.serial)).toEqual(['50.00', '50.00', '0.00']);
    // Accept and decline racing on each request: one wins, the other finds it decided.
    for (const r of results.filter((x) => x.status === 201)) {
      const id = r.body.bankWithdrawal.id;
      const raced = await Promise.all([decide(id, 'accept'), decide(id, 'decline'), decide(id, 'accept')]);
      expect(raced.filter((d) => d.status === 200)).toHaveLength(1);
      expect(raced.filter((d) => d.status === 409)).toHaveLength(2);
    }
    const coinNow = await coinOf(world.server, carol.token, coin.serial);
    expect(coinNow.heldAmount).toBe('0.00');
    const accepted = (
      await world.raw.db.query(`SELECT count(*)::int AS n FROM bank_withdrawals WHERE coin_serial = $1 AND status = 'processed'`, [
        coin.serial,
      ])
    ).rows[0].n;
    expect(coinNow.amount).toBe(`${50 - 10 * accepted}.00`);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('pays out at once for staff (direct), to an account of the coin’s organization or to details given', async () => {
    const dave = await world.user();
    const coin = await world.coin(dave, '40.00');
    const account = (await world.server.request('POST', '/api/v1/bank-accounts', { token: dave.token, body: details })).body.bankAccount;
    const direct = await world.server.request('POST', '/api/v1/bank-withdrawals', {
      token: world.admin,
      headers: { 'idempotency-key': 'payout-1' },
      body: { coinSerial: coin.serial, amount: '15.00', bankAccountId: account.id, customInformation: 'closing balance' },
    });
    expectStatus(direct, 201);
    expect(direct.body.bankWithdrawal).toMatchObject({ kind: 'direct', status: 'processed', customInformation: 'closing balance' });
    expect(direct.body.process).toMatchObject({ type: 'bank_withdrawal', status: 'processed', customInformation: 'closing balance' });
    expect(await amounts(dave.token, coin.serial)).toEqual(['25.00', '0.00', '25.00']);
    // Without BANK_WITHDRAWAL_MANAGER, POST /bank-withdrawals requests (issue 31): held until staff decide, own coins only.
    const asked = await world.server.request('POST', '/api/v1/bank-withdrawals', {
      token: dave.token,
      body: { coinSerial: coin.serial, amount: '1', bankDetails: details },
    });
    expectStatus(asked, 201);
    expect(asked.body.bankWithdrawal).toMatchObject({ kind: 'request', status: 'pending' });
    expect(asked.body.process).toMatchObject({ type: 'bank_withdrawal', status: 'pending' });
    expect(await amounts(dave.token, coin.serial)).toEqual(['25.00', '1.00', '24.00']);
    const stranger = await world.user();
    expectError(
      await world.server.request('POST', '/api/v1/bank-withdrawals', {
        token: stranger.token,
        body: { coinSerial: coin.serial, amount: '1', bankDetails: details },
      }),
      404,
      'exception.coin.not_found',
    );
    expectError(
      await world.server.request('POST', '/api/v1/bank-withdrawals', {
        token: world.admin,
        body: { coinSerial: coin.serial, amount: '100', bankDetails: details },
      }),
      409,
      'exception.coin.insufficient_funds',
    );
    expectError(
      await world.server.request('POST', '/api/v1/bank-withdrawals', {
        token: world.admin,
        body: { coinSerial: coin.serial, amount: '1' },
      }),
      400,
      'exception.validation',
      'bankAccountId',
    );
    expectError(
      await world.server.request('POST', '/api/v1/bank-withdrawals', {
        token: world.admin,
        body: { coinSerial: coin.serial, amount: '1', bankAccountId: account.id, bankDetails: details },
      }),
      400,
      'exception.validation',
      'bankDetails',
    );
    expectError(
      await world.server.request('POST', '/api/v1/bank-withdrawals', {
        token: world.admin,
        body: { coinSerial: coin.serial, amount: '1', bankDetails: { ...details, iban: 'DE00370400440532013000' } },
      }),
      400,
      'exception.validation',
      'bankDetails.iban',
    );
    await expectBalancedLedger(world.server, world.admin);
  });

  it('searches withdrawals by customInformation and more; a client sees and decides nothing of another organization (404, 403)', async () => {
    const erin = await world.user();
    const frank = await world.user();
    const erinCoin = await world.coin(erin, '10.00');
    const frankCoin = await world.coin(frank, '10.00');
    const frankAccount = (await world.server.request('POST', '/api/v1/bank-accounts', { token: frank.token, body: details })).body
      .bankAccount;
    expectError(
      await ask(erin.token, { coinSerial: frankCoin.serial, amount: '1', bankDetails: details }),
      404,
      'exception.coin.not_found',
    );
    expectError(
      await ask(erin.token, { coinSerial: erinCoin.serial, amount: '1', bankAccountId: frankAccount.id }),
      404,
      'exception.bank_account.not_found',
    );
    const erinW = (
      await ask(erin.token, { coinSerial: erinCoin.serial, amount: '2.00', bankDetails: details, customInformation: 'Order #A-17' })
    ).body.bankWithdrawal;
    const frankW = (
      await ask(frank.token, {
        coinSerial: frankCoin.serial,
        amount: '3.00',
        bankAccountId: frankAccount.id,
        customInformation: 'order #B-18',
      })
    ).body.bankWithdrawal;
    expectError(
      await world.server.request('GET', `/api/v1/bank-withdrawals/${frankW.id}`, { token: erin.token }),
      404,
      'exception.bank_withdrawal.not_found',
    );
    expectError(await decide(frankW.id, 'accept', erin.token), 403, 'exception.access.permission_missing');
    const mine = await world.server.request('POST', '/api/v1/bank-withdrawals/view', {
      token: erin.token,
      body: { filter: { customInformation: 'ORDER' } },
    });
    expect(mine.body.records.map((r: { id: string; customInformation: string }) => [r.id, r.customInformation])).toEqual([
      [erinW.id, 'Order #A-17'],
    ]);
    const staff = await world.server.request('POST', '/api/v1/bank-withdrawals/view', {
      token: world.admin,
      body: {
        filter: {
          customInformation: 'order #',
          statuses: ['pending'],
          kinds: ['request'],
          orgIds: [erin.organizationId, frank.organizationId],
        },
        sort: { createdAt: 'asc' },
      },
    });
    expect(staff.body.records.map((r: { id: string }) => r.id)).toEqual([erinW.id, frankW.id]);
    const text = await world.server.request('POST', '/api/v1/bank-withdrawals/view', {
      token: world.admin,
      body: { filter: { text: 'b-18', coinSerials: [frankCoin.serial] } },
    });
    expect(text.body.records.map((r: { id: string }) => r.id)).toEqual([frankW.id]);
    expectError(
      await world.server.request('POST', '/api/v1/bank-withdrawals/view', {
        token: erin.token,
        body: { filter: { customInformation: '' } },
      }),
      400,
      'exception.validation',
      'filter.customInformation',
    );
    expectError(
      await ask(erin.token, { coinSerial: erinCoin.serial, amount: '0', bankDetails: details }),
      400,
      'exception.validation',
      'amount',
    );
    expectError(
      await ask(erin.token, { coinSerial: erinCoin.serial, amount: '-1', bankDetails: details }),
      400,
      'exception.validation',
      'amount',
    );
    expectError(await decide('00000000-0000-4000-8000-00000000dead', 'accept'), 404, 'exception.bank_withdrawal.not_found');
  });

  it('takes each payout, request and decision once per Idempotency-Key (another body is a 422); unknown coins and withdrawals are 404s', async () => {
    const gina = await world.user();
    const coin = await world.coin(gina, '30.00');
    const post = (path: string, token: string, body: Record<string, unknown> | undefined, key?: string) =>
      world.server.request('POST', `/api/v1/bank-withdrawals${path}`, { token, body, headers: key ? { 'idempotency-key': key } : {} });
    const withdrawals = async () =>
      (await world.raw.db.query('SELECT count(*)::int AS n FROM bank_withdrawals WHERE coin_serial = $1', [coin.serial])).rows[0].n;

    const direct = { coinSerial: coin.serial, amount: '1.00', bankDetails: details };
    expectStatus(await post('', world.admin, direct, 'gina-payout'), 201);
    const replayed = await post('', world.admin, direct, 'gina-payout');
    expectStatus(replayed, 201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expectError(await post('', world.admin, { ...direct, amount: '2.00' }, 'gina-payout'), 422, 'exception.idempotency.key_reused');
    expectError(await post('', world.admin, { ...direct, coinSerial: '999999999999' }), 404, 'exception.coin.not_found');
    expectError(await post('/calculate', gina.token, { ...direct, coinSerial: '999999999999' }), 404, 'exception.coin.not_found');

    const first = await post('/create-request', gina.token, direct, 'gina-request');
    expectStatus(first, 201);
    expectError(
      await post('/create-request', gina.token, { ...direct, amount: '3.00' }, 'gina-request'),
      422,
      'exception.idempotency.key_reused',
    );
    const second = (await post('/create-request', gina.token, { ...direct, amount: '3.00' })).body.bankWithdrawal;
    expect(await withdrawals()).toBe(3);
    expect(await amounts(gina.token, coin.serial)).toEqual(['29.00', '4.00', '25.00']);

    const id = first.body.bankWithdrawal.id;
    const got = await world.server.request('GET', `/api/v1/bank-withdrawals/${id}`, { token: gina.token });
    expectStatus(got, 200);
    expect(got.body.bankWithdrawal).toMatchObject({ id, kind: 'request', status: 'pending', amount: '1.00', bankDetails: { iban: IBAN } });

    expectStatus(await post(`/${id}/accept`, world.admin, undefined, 'decide-1'), 200);
    expectError(await post(`/${second.id}/accept`, world.admin, undefined, 'decide-1'), 422, 'exception.idempotency.key_reused');
    expectStatus(await post(`/${second.id}/decline`, world.admin, { reason: 'Account closed' }, 'decide-2'), 200);
    expectError(await post(`/${second.id}/decline`, world.admin, { reason: 'Other' }, 'decide-2'), 422, 'exception.idempotency.key_reused');
    expectError(
      await post('/00000000-0000-4000-8000-00000000dead/decline', world.admin, { reason: 'No such withdrawal' }),
      404,
      'exception.bank_withdrawal.not_found',
    );
    expect(await amounts(gina.token, coin.serial)).toEqual(['28.00', '0.00', '28.00']);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('keeps one account per IBAN in an organization: changing an account to another’s IBAN is a 409', async () => {
    const hank = await world.user();
    const first = (await world.server.request('POST', '/api/v1/bank-accounts', { token: hank.token, body: details })).body.bankAccount;
    const other = await world.server.request('POST', '/api/v1/bank-accounts', {
      token: hank.token,
      body: { iban: 'GB82 WEST 1234 5698 7654 32', accountHolder: 'Hank' },
    });
    expectStatus(other, 201);
    expectError(
      await world.server.request('PATCH', `/api/v1/bank-accounts/${other.body.bankAccount.id}`, {
        token: hank.token,
        body: { iban: IBAN },
      }),
      409,
      'exception.bank_account.iban_taken',
    );
    const unchanged = await world.server.request('GET', `/api/v1/bank-accounts/${other.body.bankAccount.id}`, { token: hank.token });
    expect(unchanged.body.bankAccount.iban).toBe('GB82WEST12345698765432');
    expect(first.iban).toBe(IBAN);
  });
});
