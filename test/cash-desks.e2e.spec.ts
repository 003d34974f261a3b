import type { Actor } from './helpers/actors';
import { limitsOn, percent, usageOf } from './helpers/commissions';
import { anIssuer, coinOf, expectBalancedLedger, expectError, expectLegs, expectStatus, fund } from './helpers/money';
import { moneyWorld } from './helpers/world';

const document = { documentType: 'passport', documentNumber: 'LT1234567' };

describe('cash desks and their operations (issue 12)', () => {
  const world = moneyWorld();
  let desk: { id: string; coins: { serial: string }[] };
  let cashier: Actor;

  const enter = (token: string, body: Record<string, unknown>) =>
    world.server.request('POST', '/api/v1/cash-desk-operations', { token, body });
  const act = (id: string, action: 'confirm' | 'complete' | 'decline', token: string) =>
    world.server.request('POST', `/api/v1/cash-desk-operations/${id}/${action}`, {
      token,
      body: action === 'decline' ? { reason: 'Customer left' } : undefined,
    });
  /** The customer's one-time code for a cash-out of `amount` from their coin, and the desk presenting it. */
  const codeFor = async (customer: Actor, coinSerial: string, amount: string): Promise<string> => {
    const created = await world.server.request('POST', '/api/v1/cash-desk-operations/cash-out-codes', {
      token: customer.token,
      body: { coinSerial, amount },
    });
    expectStatus(created, 201);
    return created.body.cashOutCode.code;
  };
  const authorize = (id: string, cashOutCode: string, token: string) =>
    world.server.request('POST', `/api/v1/cash-desk-operations/${id}/authorize`, { token, body: { cashOutCode } });
  const amounts = async (serial: string) => {
    const found = await world.server.request('POST', '/api/v1/coins/view', { token: world.admin, body: { filter: { serials: [serial] } } });
    const coin = found.body.records[0];
    return [coin.amount, coin.heldAmount, coin.availableAmount];
  };

  beforeAll(async () => {
    const created = await world.server.request('POST', '/api/v1/cash-desks', {
      token: world.admin,
      body: { name: 'Main street desk', issuerIds: [world.issuer.id] },
    });
    expectStatus(created, 201);
    desk = created.body.cashDesk;
    cashier = await world.user({ role: 'cashier', organizationId: desk.id });
    await fund(world.server, world.admin, desk.coins[0].serial, '1000.00');
  });

  it('creates a desk (an organization of type cash_desk) with its cash coin; cashiers join it as members', async () => {
    expect(desk).toMatchObject({ name: 'Main street desk', coins: [{ serial: expect.any(String), issuer: { id: world.issuer.id } }] });
    const org = await world.raw.db.query('SELECT type FROM organizations WHERE id = $1', [desk.id]);
    expect(org.rows).toEqual([{ type: 'cash_desk' }]);
    expect(cashier.organizationId).toBe(desk.id);
    const view = await world.server.request('POST', '/api/v1/cash-desks/view', { token: cashier.token, body: {} });
    expectStatus(view, 200);
    expect(view.body.records.find((d: { id: string }) => d.id === desk.id).coins[0].amount).toBe('1000.00');
    const alice = await world.user();
    const seenByCustomer = await world.server.request('POST', '/api/v1/cash-desks/view', {
      token: alice.token,
      body: { filter: { ids: [desk.id] } },
    });
    expect(seenByCustomer.body.records).toEqual([{ id: desk.id, name: 'Main street desk', coins: [], createdAt: expect.any(String) }]);
    expectError(
      await world.server.request('POST', `/api/v1/cash-desks/${desk.id}/coins`, {
        token: world.admin,
        body: { issuerId: world.issuer.id },
      }),
      409,
      'exception.cash_desk.coin_exists',
    );
    expectError(
      await world.server.request('POST', '/api/v1/cash-desks/00000000-0000-4000-8000-00000000dead/coins', {
        token: world.admin,
        body: { issuerId: world.issuer.id },
      }),
      404,
      'exception.cash_desk.not_found',
    );
    expectError(
      await world.server.request('POST', '/api/v1/cash-desks', { token: cashier.token, body: { name: 'x' } }),
      403,
      'exception.access.permission_missing',
    );
  });

  it('takes cash in: the desk’s cash coin is held, and the customer’s confirmation credits their coin from it', async () => {
    const alice = await world.user();
    const coin = await world.coin(alice);
    const entered = await enter(cashier.token, {
      type: 'cash_in',
      coinSerial: coin.serial,
      amount: '200.00',
      fullName: 'Alice Liddell',
      document,
      customInformation: 'receipt 17',
    });
    expectStatus(entered, 201);
    expect(entered.body.cashDeskOperation).toMatchObject({
      type: 'cash_in',
      status: 'pending',
      decision: null,
      cashDeskId: desk.id,
      coinSerial: coin.serial,
      customerOrganizationId: alice.organizationId,
      deskCoinSerial: desk.coins[0].serial,
      amount: '200.00',
      fullName: 'Alice Liddell',
      document,
      customInformation: 'receipt 17',
    });
    expect(entered.body.process).toMatchObject({ type: 'cash_in', status: 'pending' });
    expect(await amounts(desk.coins[0].serial)).toEqual(['1000.00', '200.00', '800.00']);
    // The customer sees it, and confirms it.
    const theirs = await world.server.request('POST', '/api/v1/cash-desk-operations/view', {
      token: alice.token,
      body: { filter: { statuses: ['pending'] } },
    });
    expect(theirs.body.records.map((r: { id: string }) => r.id)).toEqual([entered.body.cashDeskOperation.id]);
    const confirmed = await act(entered.body.cashDeskOperation.id, 'confirm', alice.token);
    expectStatus(confirmed, 200);
    expect(confirmed.body.cashDeskOperation).toMatchObject({ status: 'processed', decision: 'confirmed', decidedBy: alice.id });
    expectLegs(confirmed.body.process, [[desk.coins[0].serial, coin.serial, '200.00']]);
    expect((await coinOf(world.server, alice.token, coin.serial)).amount).toBe('200.00');
    expect(await amounts(desk.coins[0].serial)).toEqual(['800.00', '0.00', '800.00']);
    expectError(await act(entered.body.cashDeskOperation.id, 'complete', cashier.token), 409, 'exception.cash_desk_operation.decided');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('pays cash out: the customer’s coin is held (amount plus fee), the cashier completes it into the desk’s coin after the customer’s code', async () => {
    const { user: bob, coin } = await world.customer('100.00', { flow: 'cash_out', fee: percent('2') });
    const body = {
      type: 'cash_out',
      coinSerial: coin.serial,
      amount: '50.00',
      fullName: 'Bob Builder',
      document: { documentType: 'id_card', documentNumber: 'AB 123/4' },
    };
    const calculated = await world.server.request('POST', '/api/v1/cash-desk-operations/calculate', { token: cashier.token, body });
    expectStatus(calculated, 200);
    expect(calculated.body).toMatchObject({ transactionAmount: '50.00', senderAmountPush: '51.00', commissionAmountPush: '1.00' });
    const entered = await enter(cashier.token, body);
    expectStatus(entered, 201);
    expect(entered.body.cashDeskOperation).toMatchObject({ commission: '1.00', status: 'pending' });
    expect(await amounts(coin.serial)).toEqual(['100.00', '51.00', '49.00']);
    expectError(
      await act(entered.body.cashDeskOperation.id, 'complete', cashier.token),
      403,
      'exception.cash_desk_operation.consent_required',
    );
    const authorized = await authorize(entered.body.cashDeskOperation.id, await codeFor(bob, coin.serial, '50.00'), cashier.token);
    expectStatus(authorized, 200);
    expect(authorized.body.cashDeskOperation).toMatchObject({ status: 'pending', cashOutCodeId: expect.any(String) });
    const completed = await act(entered.body.cashDeskOperation.id, 'complete', cashier.token);
    expectStatus(completed, 200);
    expect(completed.body.cashDeskOperation).toMatchObject({ status: 'processed', decision: 'completed', decidedBy: cashier.id });
    expectLegs(completed.body.process, [
      [coin.serial, desk.coins[0].serial, '50.00'],
      [coin.serial, expect.any(String) as unknown as string, '1.00'],
    ]);
    expect(await amounts(coin.serial)).toEqual(['49.00', '0.00', '49.00']);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('declines with the hold released; an accountant (CASH_DESK_SUPERVISOR) declines any desk’s operations, completes its cash-ins, never its cash-outs', async () => {
    const carol = await world.user();
    const coin = await world.coin(carol, '20.00');
    const first = (await enter(cashier.token, { type: 'cash_out', coinSerial: coin.serial, amount: '20.00', fullName: 'Carol', document }))
      .body.cashDeskOperation;
    expect(await amounts(coin.serial)).toEqual(['20.00', '20.00', '0.00']);
    const declined = await act(first.id, 'decline', cashier.token);
    expectStatus(declined, 200);
    expect(declined.body.cashDeskOperation).toMatchObject({ status: 'declined', decision: 'declined', declineReason: 'Customer left' });
    expect(await amounts(coin.serial)).toEqual(['20.00', '0.00', '20.00']);
    const accountant = await world.user({ role: 'accountant' });
    const second = (await enter(cashier.token, { type: 'cash_out', coinSerial: coin.serial, amount: '5.00', fullName: 'Carol', document }))
      .body.cashDeskOperation;
    expectError(await act(second.id, 'complete', accountant.token), 403, 'exception.cash_desk_operation.consent_required');
    expect(await amounts(coin.serial)).toEqual(['20.00', '5.00', '15.00']);
    expectStatus(await act(second.id, 'confirm', carol.token), 200);
    expect(await amounts(coin.serial)).toEqual(['15.00', '0.00', '15.00']);
    const cashIn = (await enter(cashier.token, { type: 'cash_in', coinSerial: coin.serial, amount: '3.00', fullName: 'Carol', document }))
      .body.cashDeskOperation;
    expectStatus(await act(cashIn.id, 'complete', accountant.token), 200);
    expect(await amounts(coin.serial)).toEqual(['18.00', '0.00', '18.00']);
    const all = await world.server.request('POST', '/api/v1/cash-desk-operations/view', {
      token: accountant.token,
      body: { filter: { coinSerials: [coin.serial], types: ['cash_out'] }, sort: { createdAt: 'asc' } },
    });
    expect(all.body.records.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      [first.id, 'declined'],
      [second.id, 'processed'],
    ]);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('refuses amount 0 (nothing created) and a fullName over 255 characters as validation errors, never a database error (sections 7 and 8)', async () => {
    const dave = await world.user();
    const coin = await world.coin(dave, '10.00');
    const count = async () => (await world.raw.db.query('SELECT count(*)::int AS n FROM cash_desk_operations')).rows[0].n;
    const operations = async () => (await world.raw.db.query('SELECT count(*)::int AS n FROM operations')).rows[0].n;
    const before = [await count(), await operations()];
    for (const amount of [0, '0', '0.00', '-0']) {
      for (const type of ['cash_in', 'cash_out']) {
        const refused = await enter(cashier.token, { type, coinSerial: coin.serial, amount, fullName: 'Dave', document });
        expectError(refused, 400, 'exception.validation', 'amount');
        expect(refused.body.errors).toEqual([{ parameter: 'amount', message: 'must not be 0' }]);
      }
    }
    const long = await enter(cashier.token, {
      type: 'cash_in',
      coinSerial: coin.serial,
      amount: '1.00',
      fullName: 'x'.repeat(256),
      document,
    });
    expectError(long, 400, 'exception.validation', 'fullName');
    expect(long.body.errors).toEqual([{ parameter: 'fullName', message: 'must be shorter than or equal to 255 characters' }]);
    expect([await count(), await operations()]).toEqual(before);
    expectStatus(
      await enter(cashier.token, { type: 'cash_in', coinSerial: coin.serial, amount: '1.00', fullName: 'x'.repeat(255), document }),
      201,
    );
    for (const [body, parameter] of [
      [{ fullName: '' }, 'fullName'],
      [{ document: { documentType: 'library_card', documentNumber: '1' } }, 'document.documentType'],
      [{ document: { documentType: 'passport', documentNumber: 'x'.repeat(51) } }, 'document.documentNumber'],
      [{ document: undefined }, 'document'],
      [{ type: 'cash_sideways' }, 'type'],
      [{ amount: '1.001' }, 'amount'],
    ] as const) {
      const refused = await enter(cashier.token, {
        type: 'cash_in',
        coinSerial: coin.serial,
        amount: '1.00',
        fullName: 'Dave',
        document,
        ...body,
      });
      expectError(refused, 400, 'exception.validation', parameter);
    }
  });

  it('keeps each to their own: another customer confirms nothing (404), another desk completes nothing (404), staff of no desk enter nothing (403)', async () => {
    const erin = await world.user();
    const frank = await world.user();
    const coin = await world.coin(erin, '10.00');
    const op = (await enter(cashier.token, { type: 'cash_out', coinSerial: coin.serial, amount: '1.00', fullName: 'Erin', document })).body
      .cashDeskOperation;
    expectError(await act(op.id, 'confirm', frank.token), 404, 'exception.cash_desk_operation.not_found');
    expectError(
      await world.server.request('GET', `/api/v1/cash-desk-operations/${op.id}`, { token: frank.token }),
      404,
      'exception.cash_desk_operation.not_found',
    );
    expect(
      (await world.server.request('POST', '/api/v1/cash-desk-operations/view', { token: frank.token, body: {} })).body.totalRecords,
    ).toBe(0);
    expectError(await act(op.id, 'complete', erin.token), 403, 'exception.access.permission_missing');
    const other = (await world.server.request('POST', '/api/v1/cash-desks', { token: world.admin, body: { name: 'Other desk' } })).body
      .cashDesk;
    const otherCashier = await world.user({ role: 'cashier', organizationId: other.id });
    expectError(await act(op.id, 'complete', otherCashier.token), 404, 'exception.cash_desk_operation.not_found');
    expectError(await act(op.id, 'decline', otherCashier.token), 404, 'exception.cash_desk_operation.not_found');
    expect(
      (await world.server.request('POST', '/api/v1/cash-desk-operations/view', { token: otherCashier.token, body: {} })).body.totalRecords,
    ).toBe(0);
    // The other desk has no cash coin of this issuer until one is opened.
    expectError(
      await enter(otherCashier.token, { type: 'cash_out', coinSerial: coin.serial, amount: '1.00', fullName: 'Erin', document }),
      409,
      'exception.cash_desk.no_cash_coin',
    );
    expectStatus(
      await world.server.request('POST', `/api/v1/cash-desks/${other.id}/coins`, {
        token: world.admin,
        body: { issuerId: world.issuer.id },
      }),
      201,
    );
    expectError(
      await enter(otherCashier.token, { type: 'cash_in', coinSerial: coin.serial, amount: '1.00', fullName: 'Erin', document }),
      409,
      'exception.coin.insufficient_funds',
    );
    const supportCashier = await world.user({ role: 'cashier' });
    expectError(
      await enter(supportCashier.token, { type: 'cash_in', coinSerial: coin.serial, amount: '1.00', fullName: 'Erin', document }),
      403,
      'exception.cash_desk.not_member',
    );
    expectError(
      await enter(cashier.token, { type: 'cash_in', coinSerial: desk.coins[0].serial, amount: '1.00', fullName: 'Desk', document }),
      400,
      'exception.validation',
      'coinSerial',
    );
    expectError(
      await enter(cashier.token, { type: 'cash_in', coinSerial: '999999999999', amount: '1.00', fullName: 'Nobody', document }),
      404,
      'exception.coin.not_found',
    );
    // Racing decisions, the cash-out authorized by Erin's code so the desk may complete it: exactly one wins.
    expectStatus(await authorize(op.id, await codeFor(erin, coin.serial, '1.00'), cashier.token), 200);
    const raced = await Promise.all([
      act(op.id, 'confirm', erin.token),
      act(op.id, 'complete', cashier.token),
      act(op.id, 'decline', cashier.token),
    ]);
    expect(raced.filter((r) => r.status === 200)).toHaveLength(1);
    expect(raced.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual([
      'exception.cash_desk_operation.decided',
      'exception.cash_desk_operation.decided',
    ]);
    const mine = await world.server.request('GET', `/api/v1/cash-desk-operations/${op.id}`, { token: erin.token });
    expectStatus(mine, 200);
    expect(mine.body.cashDeskOperation.status).not.toBe('pending');
    const text = await world.server.request('POST', '/api/v1/cash-desk-operations/view', {
      token: cashier.token,
      body: { filter: { text: 'erin', orgIds: [erin.organizationId] } },
    });
    expect(text.body.records.map((r: { id: string }) => r.id)).toContain(op.id);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('takes each entry and decision once per Idempotency-Key (another body or operation is a 422); calculations name unknown coins and missing cash coins', async () => {
    const gina = await world.user();
    const coin = await world.coin(gina, '50.00');
    const post = (path: string, token: string, body: Record<string, unknown> | undefined, key?: string) =>
      world.server.request('POST', `/api/v1/cash-desk-operations${path}`, { token, body, headers: key ? { 'idempotency-key': key } : {} });
    const operations = async () =>
      (await world.raw.db.query('SELECT count(*)::int AS n FROM cash_desk_operations WHERE coin_serial = $1', [coin.serial])).rows[0].n;
    const body = { type: 'cash_out', coinSerial: coin.serial, amount: '2.00', fullName: 'Gina', document };

    const first = await post('', cashier.token, body, 'till-1');
    expectStatus(first, 201);
    const replayed = await post('', cashier.token, body, 'till-1');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.cashDeskOperation.id).toBe(first.body.cashDeskOperation.id);
    expectError(await post('', cashier.token, { ...body, amount: '3.00' }, 'till-1'), 422, 'exception.idempotency.key_reused');
    const ids = [first.body.cashDeskOperation.id];
    for (let i = 0; i < 3; i++) ids.push((await post('', cashier.token, body)).body.cashDeskOperation.id);
    expect(await operations()).toBe(4);

    // Confirmed by the customer under a key; the same key on another operation is a 422, a decided one a 409.
    expectStatus(await post(`/${ids[0]}/confirm`, gina.token, undefined, 'gina-yes'), 200);
    expectError(await post(`/${ids[1]}/confirm`, gina.token, undefined, 'gina-yes'), 422, 'exception.idempotency.key_reused');
    expectError(await post(`/${ids[0]}/confirm`, gina.token, undefined), 409, 'exception.cash_desk_operation.decided');
    // Completed (with Gina's code) and declined by the desk, likewise.
    expectStatus(await authorize(ids[1], await codeFor(gina, coin.serial, '2.00'), cashier.token), 200);
    expectStatus(await post(`/${ids[1]}/complete`, cashier.token, undefined, 'till-done'), 200);
    expectError(await post(`/${ids[2]}/complete`, cashier.token, undefined, 'till-done'), 422, 'exception.idempotency.key_reused');
    expectStatus(await post(`/${ids[2]}/decline`, cashier.token, { reason: 'Wrong amount' }, 'till-no'), 200);
    expectError(await post(`/${ids[2]}/decline`, cashier.token, { reason: 'Other' }, 'till-no'), 422, 'exception.idempotency.key_reused');
    expectStatus(await post(`/${ids[3]}/decline`, cashier.token, { reason: 'Customer left' }), 200);
    expect(await amounts(coin.serial)).toEqual(['46.00', '0.00', '46.00']);

    const calculated = await post('/calculate', cashier.token, body);
    expectStatus(calculated, 200);
    expect(calculated.body).toMatchObject({ transactionAmount: '2.00', senderAmountPush: '2.00' });
    expectError(await post('/calculate', cashier.token, { ...body, coinSerial: '999999999999' }), 404, 'exception.coin.not_found');
    const coinless = (await world.server.request('POST', '/api/v1/cash-desks', { token: world.admin, body: { name: 'Coinless desk' } }))
      .body.cashDesk;
    const coinlessCashier = await world.user({ role: 'cashier', organizationId: coinless.id });
    expectError(await post('/calculate', coinlessCashier.token, body), 409, 'exception.cash_desk.no_cash_coin');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('creates a desk only with issuers that exist and are active: 404 and 409, and no desk is left behind', async () => {
    const desks = async () => (await world.raw.db.query(`SELECT count(*)::int AS n FROM organizations WHERE type = 'cash_desk'`)).rows[0].n;
    const before = await desks();
    const create = (issuerIds: string[]) =>
      world.server.request('POST', '/api/v1/cash-desks', { token: world.admin, body: { name: 'Half-made desk', issuerIds } });
    expectError(await create([world.issuer.id, '00000000-0000-4000-8000-00000000dead']), 404, 'exception.issuer.not_found');
    const retired = await anIssuer(world.server, world.admin, world.currency.code, 'Retired bank');
    expectStatus(
      await world.server.request('PATCH', `/api/v1/issuers/${retired.id}`, { token: world.admin, body: { active: false } }),
      200,
    );
    expectError(await create([world.issuer.id, retired.id]), 409, 'exception.issuer.inactive');
    expect(await desks()).toBe(before);
  });
});

describe('issue 29: a cash-out settles only with its customer’s consent', () => {
  const world = moneyWorld();
  let deskA: { id: string; coins: { serial: string }[] };
  let deskB: { id: string; coins: { serial: string }[] };
  let cashierA: Actor;
  let cashierB: Actor;
  let accountant: Actor;

  const enter = (token: string, type: string, coinSerial: string, amount: string) =>
    world.server.request('POST', '/api/v1/cash-desk-operations', {
      token,
      body: { type, coinSerial, amount, fullName: 'Customer', document },
    });
  const act = (id: string, action: 'confirm' | 'complete' | 'decline', token: string) =>
    world.server.request('POST', `/api/v1/cash-desk-operations/${id}/${action}`, {
      token,
      body: action === 'decline' ? { reason: 'No consent' } : undefined,
    });
  const newCode = (token: string, coinSerial: string, amount: string) =>
    world.server.request('POST', '/api/v1/cash-desk-operations/cash-out-codes', { token, body: { coinSerial, amount } });
  const codeFor = async (customer: Actor, coinSerial: string, amount: string): Promise<string> => {
    const created = await newCode(customer.token, coinSerial, amount);
    expectStatus(created, 201);
    return created.body.cashOutCode.code;
  };
  const authorize = (id: string, cashOutCode: string, token: string) =>
    world.server.request('POST', `/api/v1/cash-desk-operations/${id}/authorize`, { token, body: { cashOutCode } });
  const cashOut = async (token: string, coinSerial: string, amount: string): Promise<string> => {
    const entered = await enter(token, 'cash_out', coinSerial, amount);
    expectStatus(entered, 201);
    return entered.body.cashDeskOperation.id;
  };
  const amounts = async (serial: string) => {
    const found = await world.server.request('POST', '/api/v1/coins/view', { token: world.admin, body: { filter: { serials: [serial] } } });
    const coin = found.body.records[0];
    return [coin.amount, coin.heldAmount];
  };
  /** Another 8-digit code than `code`. */
  const other = (code: string) => String((Number(code) + 1) % 100_000_000).padStart(8, '0');

  beforeAll(async () => {
    const desk = async (name: string) => {
      const created = await world.server.request('POST', '/api/v1/cash-desks', {
        token: world.admin,
        body: { name, issuerIds: [world.issuer.id] },
      });
      expectStatus(created, 201);
      await fund(world.server, world.admin, created.body.cashDesk.coins[0].serial, '1000.00');
      return created.body.cashDesk;
    };
    deskA = await desk('Desk A');
    deskB = await desk('Desk B');
    cashierA = await world.user({ role: 'cashier', organizationId: deskA.id });
    cashierB = await world.user({ role: 'cashier', organizationId: deskB.id });
    accountant = await world.user({ role: 'accountant' });
  });

  it('a cashier of desk A completes no cash-out alone: not from a customer’s coin, not from a merchant’s, and desk B’s till is no customer coin', async () => {
    const alice = await world.user();
    const shop = await world.user({ role: 'merchant' });
    const aliceCoin = await world.coin(alice, '100.00');
    const shopCoin = await world.coin(shop, '100.00');
    for (const [owner, coin] of [
      [alice, aliceCoin],
      [shop, shopCoin],
    ] as const) {
      const id = await cashOut(cashierA.token, coin.serial, '40.00');
      expect(await amounts(coin.serial)).toEqual(['100.00', '40.00']);
      expectError(await act(id, 'complete', cashierA.token), 403, 'exception.cash_desk_operation.consent_required');
      // A supervisor may decline a cash-out, never settle one.
      expectError(await act(id, 'complete', accountant.token), 403, 'exception.cash_desk_operation.consent_required');
      expect(await amounts(coin.serial)).toEqual(['100.00', '40.00']);
      expect(await amounts(deskA.coins[0].serial)).toEqual([owner === alice ? '1000.00' : '1010.00', '0.00']);
      expectStatus(await act(id, 'decline', accountant.token), 200);
      expect(await amounts(coin.serial)).toEqual(['100.00', '0.00']);
      // The owner's confirmation is consent.
      const confirmed = await cashOut(cashierA.token, coin.serial, '10.00');
      expectStatus(await act(confirmed, 'confirm', owner.token), 200);
      expect(await amounts(coin.serial)).toEqual(['90.00', '0.00']);
    }
    // Desk B's till, and desk A's own, are never a customer's coin: for either type, entered or calculated.
    for (const serial of [deskB.coins[0].serial, deskA.coins[0].serial]) {
      for (const type of ['cash_out', 'cash_in']) {
        expectError(await enter(cashierA.token, type, serial, '5.00'), 400, 'exception.validation', 'coinSerial');
        expectError(
          await world.server.request('POST', '/api/v1/cash-desk-operations/calculate', {
            token: cashierA.token,
            body: { type, coinSerial: serial, amount: '5.00', fullName: 'Desk', document },
          }),
          400,
          'exception.validation',
          'coinSerial',
        );
      }
    }
    expect(await amounts(deskB.coins[0].serial)).toEqual(['1000.00', '0.00']);
    expect(await amounts(deskA.coins[0].serial)).toEqual(['1020.00', '0.00']);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('the customer’s one-time code (8 digits, shown once, kept hashed) lets the desk complete a cash-out of that coin and amount, once', async () => {
    const alice = await world.user();
    const coin = await world.coin(alice, '100.00');
    const spare = await world.coin(alice, '100.00');
    const created = await newCode(alice.token, coin.serial, '25.00');
    expectStatus(created, 201);
    const minutes = (Date.parse(created.body.cashOutCode.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    expect(created.body.cashOutCode).toEqual({
      id: expect.any(String),
      code: expect.stringMatching(/^[0-9]{8}$/),
      coinSerial: coin.serial,
      amount: '25.00',
      currency: world.currency.code,
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    const code = created.body.cashOutCode.code as string;
    const stored = (await world.raw.db.query('SELECT * FROM cash_out_codes WHERE id = $1', [created.body.cashOutCode.id])).rows[0];
    expect(JSON.stringify(stored)).not.toContain(code);

    const id = await cashOut(cashierA.token, coin.serial, '25.00');
    expectError(await authorize(id, other(code), cashierA.token), 403, 'exception.cash_out_code.invalid');
    expectError(await act(id, 'complete', cashierA.token), 403, 'exception.cash_desk_operation.consent_required');
    // Desk B neither presents nor completes desk A's operation.
    expectError(await authorize(id, code, cashierB.token), 404, 'exception.cash_desk_operation.not_found');
    const authorized = await authorize(id, code, cashierA.token);
    expectStatus(authorized, 200);
    expect(authorized.body.cashDeskOperation).toMatchObject({ status: 'pending', cashOutCodeId: created.body.cashOutCode.id });
    expectError(await authorize(id, code, cashierA.token), 409, 'exception.cash_desk_operation.authorized');
    // Even with the code, a supervisor does not settle a cash-out.
    expectError(await act(id, 'complete', accountant.token), 403, 'exception.cash_desk_operation.consent_required');
    const completed = await act(id, 'complete', cashierA.token);
    expectStatus(completed, 200);
    expect(completed.body.cashDeskOperation).toMatchObject({ status: 'processed', decision: 'completed' });
    expectLegs(completed.body.process, [[coin.serial, deskA.coins[0].serial, '25.00']]);
    expect(await amounts(coin.serial)).toEqual(['75.00', '0.00']);

    // Used once; a code is bound to its coin and its exact amount; an expired one is refused.
    const again = await cashOut(cashierA.token, coin.serial, '25.00');
    expectError(await authorize(again, code, cashierA.token), 403, 'exception.cash_out_code.invalid');
    expectError(await authorize(again, await codeFor(alice, coin.serial, '25.01'), cashierA.token), 403, 'exception.cash_out_code.invalid');
    expectError(
      await authorize(again, await codeFor(alice, spare.serial, '25.00'), cashierA.token),
      403,
      'exception.cash_out_code.invalid',
    );
    const late = await codeFor(alice, coin.serial, '25.00');
    await world.raw.db.query(`UPDATE cash_out_codes SET expires_at = now() - interval '1 second' WHERE coin_serial = $1`, [coin.serial]);
    expectError(await authorize(again, late, cashierA.token), 403, 'exception.cash_out_code.invalid');
    expectError(await act(again, 'complete', cashierA.token), 403, 'exception.cash_desk_operation.consent_required');
    expect(await amounts(coin.serial)).toEqual(['75.00', '25.00']);
    expectStatus(await act(again, 'decline', cashierA.token), 200);

    // Only the coin's owner makes a code; a cash-in takes none.
    const bob = await world.user();
    expectError(await newCode(bob.token, coin.serial, '1.00'), 404, 'exception.coin.not_found');
    expectError(await newCode(cashierA.token, deskA.coins[0].serial, '1.00'), 403, 'exception.access.permission_missing');
    expectError(await newCode(alice.token, coin.serial, '0'), 400, 'exception.validation', 'amount');
    expectStatus(
      await world.server.request('PATCH', `/api/v1/coins/${spare.serial}`, { token: alice.token, body: { active: false } }),
      200,
    );
    expectError(await newCode(alice.token, spare.serial, '1.00'), 409, 'exception.coin.inactive');
    const cashIn = (await enter(cashierA.token, 'cash_in', coin.serial, '1.00')).body.cashDeskOperation.id;
    expectError(
      await authorize(cashIn, await codeFor(alice, coin.serial, '1.00'), cashierA.token),
      409,
      'exception.cash_desk_operation.not_cash_out',
    );
    expectError(await authorize(cashIn, '123', cashierA.token), 400, 'exception.validation', 'cashOutCode');

    // A merchant consents the same way.
    const shop = await world.user({ role: 'merchant' });
    const shopCoin = await world.coin(shop, '50.00');
    const shopOut = await cashOut(cashierA.token, shopCoin.serial, '20.00');
    expectError(await act(shopOut, 'complete', cashierA.token), 403, 'exception.cash_desk_operation.consent_required');
    expectStatus(await authorize(shopOut, await codeFor(shop, shopCoin.serial, '20.00'), cashierA.token), 200);
    expectStatus(await act(shopOut, 'complete', cashierA.token), 200);
    expect(await amounts(shopCoin.serial)).toEqual(['30.00', '0.00']);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('burns a coin’s live codes after 5 wrong tries, and of two desks presenting one code exactly one wins', async () => {
    const carol = await world.user();
    const coin = await world.coin(carol, '100.00');
    const code = await codeFor(carol, coin.serial, '5.00');
    const id = await cashOut(cashierA.token, coin.serial, '5.00');
    let guess = code;
    for (let i = 0; i < 5; i++) {
      guess = other(guess);
      expectError(await authorize(id, guess, cashierA.token), 403, 'exception.cash_out_code.invalid');
    }
    expectError(await authorize(id, code, cashierA.token), 403, 'exception.cash_out_code.invalid');
    const [burnt] = (await world.raw.db.query('SELECT failed_attempts, burnt_at FROM cash_out_codes WHERE coin_serial = $1', [coin.serial]))
      .rows;
    expect(burnt).toEqual({ failed_attempts: 5, burnt_at: expect.any(Date) });
    expectError(await act(id, 'complete', cashierA.token), 403, 'exception.cash_desk_operation.consent_required');
    expect(await amounts(coin.serial)).toEqual(['100.00', '5.00']);
    // A fresh code works.
    expectStatus(await authorize(id, await codeFor(carol, coin.serial, '5.00'), cashierA.token), 200);
    expectStatus(await act(id, 'complete', cashierA.token), 200);

    const shared = await codeFor(carol, coin.serial, '6.00');
    const atA = await cashOut(cashierA.token, coin.serial, '6.00');
    const atB = await cashOut(cashierB.token, coin.serial, '6.00');
    const raced = await Promise.all([authorize(atA, shared, cashierA.token), authorize(atB, shared, cashierB.token)]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 403]);
    const completed = await Promise.all([act(atA, 'complete', cashierA.token), act(atB, 'complete', cashierB.token)]);
    expect(completed.map((r) => r.status).sort()).toEqual([200, 403]);
    expect(await amounts(coin.serial)).toEqual(['89.00', '6.00']);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('the customer refuses a cash-out entered against their coin: the hold is released at once and the desk can no longer complete it', async () => {
    const dave = await world.user();
    const coin = await world.coin(dave, '50.00');
    const id = await cashOut(cashierA.token, coin.serial, '30.00');
    expect(await amounts(coin.serial)).toEqual(['50.00', '30.00']);
    const refuse = (token: string, body: unknown = { reason: 'I asked for nothing' }, headers: Record<string, string> = {}) =>
      world.server.request('POST', `/api/v1/cash-desk-operations/${id}/refuse`, { token, body, headers });
    // Only the coin's owner refuses: another customer finds nothing, a cashier lacks the permission.
    expectError(await refuse((await world.user()).token), 404, 'exception.cash_desk_operation.not_found');
    expectError(await refuse(cashierA.token), 403, 'exception.access.permission_missing');
    expectError(await refuse(dave.token, {}), 400, 'exception.validation', 'reason');
    const key = { 'Idempotency-Key': `refuse-${id}` };
    const refused = await refuse(dave.token, undefined, key);
    expectStatus(refused, 200);
    // A retry takes effect once; the same key with another reason is a 422.
    const replayed = await refuse(dave.token, undefined, key);
    expectStatus(replayed, 200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expectError(await refuse(dave.token, { reason: 'Another reason' }, key), 422, 'exception.idempotency.key_reused');
    expect(refused.body.cashDeskOperation).toMatchObject({
      status: 'declined',
      decision: 'declined',
      declineReason: 'I asked for nothing',
    });
    expect(await amounts(coin.serial)).toEqual(['50.00', '0.00']);
    // Even with a code the owner made, the desk settles nothing refused.
    expectError(
      await authorize(id, await codeFor(dave, coin.serial, '30.00'), cashierA.token),
      409,
      'exception.cash_desk_operation.decided',
    );
    expectError(await act(id, 'complete', cashierA.token), 409, 'exception.cash_desk_operation.decided');
    expectError(await refuse(dave.token), 409, 'exception.cash_desk_operation.decided');
    expect(await amounts(coin.serial)).toEqual(['50.00', '0.00']);
    await expectBalancedLedger(world.server, world.admin);
  });

  /** A customer's own withdrawal at desk A (`cash_desk_redeem`, priced and limited as the `cash_out` flow). */
  const withdraw = (customer: Actor, coinSerial: string, amount: string) =>
    world.server.request('POST', `/api/v1/cash-desk-withdrawals/${deskA.id}`, {
      token: customer.token,
      body: { coin: coinSerial, amount, receiverName: 'Customer' },
    });
  const refuseAs = (customer: Actor, id: string) =>
    world.server.request('POST', `/api/v1/cash-desk-operations/${id}/refuse`, { token: customer.token, body: { reason: 'Not mine' } });

  it('issue 43: a cash-out the customer refuses gives back what it counted — their own 10.00 within the day’s 50.00 passes, beyond it is still refused', async () => {
    const { user: erin, coin } = await world.customer('200.00', { flow: 'cash_out', limits: [['amount', 'per_day', '50.00']] });
    const code = world.currency.code;
    // The cashier enters a cash-out of the whole day's limit that Erin never asked for; she refuses it.
    const unsolicited = await cashOut(cashierA.token, coin.serial, '50.00');
    expectStatus(await refuseAs(erin, unsolicited), 200);
    expect(await amounts(coin.serial)).toEqual(['200.00', '0.00']);
    // Nothing moved, so nothing is counted: her own withdrawal passes.
    expectStatus(await withdraw(erin, coin.serial, '10.00'), 201);
    // What did move still counts: 10.00 + 40.01 would pass the day's 50.00.
    const beyond = await withdraw(erin, coin.serial, '40.01');
    expectError(beyond, 409, 'exception.limit.exceeded');
    expect(beyond.body.message).toBe(`The limit of 50.00 ${code} per day is exceeded: 10.00 ${code} used, 40.01 ${code} asked`);
    expectStatus(await withdraw(erin, coin.serial, '40.00'), 201);
    expectError(await withdraw(erin, coin.serial, '0.01'), 409, 'exception.limit.exceeded');
    expect(await amounts(coin.serial)).toEqual(['150.00', '0.00']);
  });

  it('issue 43: a per_life limit counts what settled — cash-outs declined by the desk or refused by the customer give back their amount and their count', async () => {
    const fay = await world.user();
    const coin = await world.coin(fay, '500.00');
    const { limits } = await limitsOn(world.server, world.admin, {
      organizationId: fay.organizationId,
      issuerId: world.issuer.id,
      flow: 'cash_out',
      limits: [
        ['amount', 'per_life', '100.00'],
        ['quantity', 'per_life', 2],
      ],
    });
    const declined = await cashOut(cashierA.token, coin.serial, '60.00');
    expectStatus(await act(declined, 'decline', cashierA.token), 200);
    const refused = await cashOut(cashierA.token, coin.serial, '30.00');
    expectStatus(await refuseAs(fay, refused), 200);
    // Settled: a cash-out Fay confirms, and a withdrawal of her own.
    const confirmed = await cashOut(cashierA.token, coin.serial, '25.00');
    expectStatus(await act(confirmed, 'confirm', fay.token), 200);
    expectStatus(await withdraw(fay, coin.serial, '20.00'), 201);
    const life = '1970-01-01 00:00:00';
    expect(await usageOf(world.server.db, fay.organizationId)).toEqual(
      [
        { limitProfileId: limits[0].id, periodStart: life, amount: '45', count: 2 },
        { limitProfileId: limits[1].id, periodStart: life, amount: '45', count: 2 },
      ].sort((a, b) => (a.limitProfileId < b.limitProfileId ? -1 : 1)),
    );
    // Two operations settled: the count is reached for good, whatever the amount.
    expectError(await withdraw(fay, coin.serial, '1.00'), 409, 'exception.limit.exceeded');
    expect(await amounts(coin.serial)).toEqual(['455.00', '0.00']);
    await expectBalancedLedger(world.server, world.admin);
  });
});
