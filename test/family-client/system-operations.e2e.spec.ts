import type { Actor } from '../helpers/actors';
import { aCurrency, anIssuer, Dec, expectBalancedLedger, expectError, expectLegs, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * Issue 32: the family's web client's system operations screen (cfo and accountants) runs on finapi unchanged. It
 * lists cash desks (or gate providers) with `POST /organizations`, their coins with `GET /organizations/{id}/provider-coins`,
 * and posts `{amount, serial, fullName}` to `/collects`, `/inputs`, `/investments` or `/gate-investments`, showing the
 * answer's `process.requestIdentifier`. Each is one ledger operation between a system coin and the named coin.
 */
describe('family client: system operations (issue 32)', () => {
  const world = moneyWorld();
  let cfo: Actor;
  let accountant: Actor;
  let desk: { id: string; name: string; coins: { serial: string }[] };
  let provider: { id: string; name: string };

  const req = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    world.server.request(method, `/api/v1${path}`, { token, headers, ...(body !== undefined ? { body } : {}) });

  /** The coin as staff read it: balance and available funds. */
  const amountOf = async (serial: string): Promise<string> => {
    const found = await req('POST', '/coins/view', world.admin, { filter: { serials: [serial] } });
    expectStatus(found, 200);
    return String(found.body.records[0].amount);
  };
  /** The issuer's system coin of a kind, as staff search it. */
  const systemCoin = async (kind: string): Promise<string> =>
    (
      await world.raw.db.query(`SELECT serial::text AS serial FROM coins WHERE issuer_id = $1 AND system_kind = $2`, [
        world.issuer.id,
        kind,
      ])
    ).rows[0]?.serial;
  /** The staff member's money_moved actions of an operation. */
  const movedBy = async (by: Actor, operationId: string) => {
    const page = await req('POST', '/users/view/actions', world.admin, {
      filter: { userIds: [by.id], actions: ['money_moved'] },
      pageSize: 100,
    });
    expectStatus(page, 200);
    return page.body.records.filter((a: any) => a.details.operationId === operationId);
  };
  /** What the screen reads of an answer: the operation's request identifier (its Idempotency-Key). */
  const expectProcessed = (answer: any, type: string, key: string) => {
    expect(answer.process).toMatchObject({ type, status: 'processed', requestIdentifier: key });
  };

  beforeAll(async () => {
    cfo = await world.user({ role: 'cfo' });
    accountant = await world.user({ role: 'accountant' });
    const created = await req('POST', '/cash-desks', world.admin, { name: 'Harbour desk', issuerIds: [world.issuer.id] });
    expectStatus(created, 201);
    desk = created.body.cashDesk;
    const gate = await req('POST', '/gate-providers', world.admin, {
      name: 'Harbour telecom',
      type: 'billing',
      settings: { secret: 'simulated-provider-secret-0001' },
    });
    expectStatus(gate, 201);
    provider = gate.body.gateProvider;
    const product = await req('POST', '/gate/products', world.admin, {
      gateProviderId: provider.id,
      name: 'Harbour mobile',
      currency: world.currency.code,
      minAmount: '1.00',
      maxAmount: '500.00',
      fields: [{ name: 'phone', type: 'string', required: true }],
    });
    expectStatus(product, 201);
  });

  it('POST /organizations — the system operations screen lists cash desks, then gate providers, by the type chosen', async () => {
    const desks = await req('POST', '/organizations', cfo.token, { filter: { types: ['cash_desk'] }, pageNumber: 0, pageSize: 20 });
    expectStatus(desks, 200);
    expect(desks.body).toMatchObject({ pageNumber: 0, pageSize: 20, totalRecords: 1, totalPages: 1 });
    expect(desks.body.records).toEqual([
      expect.objectContaining({
        id: desk.id,
        name: 'Harbour desk',
        type: 'cash_desk',
        status: 'active',
        contract_info: expect.any(Object),
      }),
    ]);
    // The desk's contract, with its name as the contracts screen shows it.
    const { contract_info } = desks.body.records[0];
    const contract = await req('GET', `/contracts/${contract_info.id}`, world.admin);
    expect(contract_info).toEqual({ id: contract.body.contract.id, personType: expect.any(String), name: contract.body.contract.name });
    const gates = await req('POST', '/organizations', accountant.token, {
      filter: { types: ['gate_provider'] },
      pageNumber: 0,
      pageSize: 20,
    });
    expectStatus(gates, 200);
    expect(gates.body.records).toEqual([
      expect.objectContaining({ id: provider.id, name: 'Harbour telecom', type: 'gate_provider', status: 'active', contract_info: null }),
    ]);
  });

  it('POST /organizations — the users screen: organization types by code, the issuer served, sort, all, and bad input', async () => {
    const other = await world.user({ role: 'merchant' });
    const byCode = await req('POST', '/organizations', world.admin, {
      filter: { organizationTypes: [{ code: 'cash_desk' }, { code: 'gate_provider' }], emitentId: world.issuer.id },
      sort: { createdAt: 'desc' },
      all: true,
    });
    expectStatus(byCode, 200);
    expect(byCode.body.records.map((r: any) => r.id)).toEqual([provider.id, desk.id]);
    const merchants = await req('POST', '/organizations', world.admin, { filter: { types: 'merchant' }, sort: { name: 'asc' } });
    expectStatus(merchants, 200);
    expect(merchants.body.records.map((r: any) => r.id)).toContain(other.organizationId);
    expect(merchants.body.records.every((r: any) => r.type === 'merchant')).toBe(true);
    // The system organization is never listed.
    const all = await req('POST', '/organizations', world.admin, { all: true });
    expect(all.body.records.some((r: any) => r.type === 'system')).toBe(false);

    expectError(await req('POST', '/organizations', world.admin, { sort: { bogus: 'asc' } }), 400, 'exception.validation', 'sort.bogus');
    expectError(await req('POST', '/organizations', world.admin, { filter: { types: ['bank'] } }), 400, 'exception.validation');
    expectError(await req('POST', '/organizations', world.admin, { filter: { emitentId: 'x' } }), 400, 'exception.validation');
    // Customers do not list other organizations.
    expectError(await req('POST', '/organizations', other.token, {}), 403);
  });

  it('GET /organizations/{id}/provider-coins — a cash desk’s cash coins and a gate provider’s settlement coin', async () => {
    const coins = await req('GET', `/organizations/${desk.id}/provider-coins`, cfo.token);
    expectStatus(coins, 200);
    expect(coins.body.coins).toEqual([
      expect.objectContaining({
        serial: desk.coins[0].serial,
        name: expect.any(String),
        amount: expect.anything(),
        availableAmount: expect.anything(),
        futureAmount: expect.anything(),
        creditLimit: expect.anything(),
        issuer: expect.objectContaining({ id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code }),
      }),
    ]);
    const gate = await req('GET', `/organizations/${provider.id}/provider-coins`, accountant.token);
    expectStatus(gate, 200);
    const settlement = await systemCoin('gate_settlement');
    expect(gate.body.coins).toEqual([
      expect.objectContaining({ serial: settlement, type: 'system', issuer: expect.objectContaining({ id: world.issuer.id }) }),
    ]);

    const customer = await world.user();
    expectError(
      await req('GET', `/organizations/${customer.organizationId}/provider-coins`, cfo.token),
      404,
      'exception.organization.not_found',
    );
    expectError(await req('GET', `/organizations/00000000-0000-4000-8000-00000000abcd/provider-coins`, cfo.token), 404);
    expectError(await req('GET', `/organizations/nope/provider-coins`, cfo.token), 400);
    expectError(await req('GET', `/organizations/${desk.id}/provider-coins`, customer.token), 403);
  });

  it('POST /investments — the cfo invests in a cash desk from the bank-settlement coin, in the action log', async () => {
    const serial = desk.coins[0].serial;
    const before = await amountOf(serial);
    const answer = await req(
      'POST',
      '/investments',
      cfo.token,
      { amount: 300, serial, fullName: 'Ada Byron' },
      { 'idempotency-key': 'invest-1' },
    );
    expectStatus(answer, 201);
    expectProcessed(answer.body, 'cash_investment', 'invest-1');
    const settlement = await systemCoin('bank_settlement');
    expectLegs(answer.body.process, [[settlement, serial, '300.00']]);
    expect(await amountOf(serial)).toBe(new Dec(before).plus(300).toFixed(2));
    const moved = await movedBy(cfo, answer.body.process.id);
    expect(moved).toHaveLength(1);
    expect(moved[0].details).toMatchObject({
      operationType: 'cash_investment',
      amount: '300.00',
      actorRole: 'cfo',
      idempotencyKey: 'invest-1',
    });
    // A retry with the same key takes effect once.
    const again = await req(
      'POST',
      '/investments',
      cfo.token,
      { amount: 300, serial, fullName: 'Ada Byron' },
      { 'idempotency-key': 'invest-1' },
    );
    expectStatus(again, 201);
    expect(again.body.process.id).toBe(answer.body.process.id);
    expect(await amountOf(serial)).toBe(new Dec(before).plus(300).toFixed(2));
  });

  it('POST /inputs — an accountant puts cash into the desk from the cash_desk system coin', async () => {
    const serial = desk.coins[0].serial;
    const answer = await req(
      'POST',
      '/inputs',
      accountant.token,
      { amount: '50.5', serial, fullName: 'Alan Turing' },
      { 'idempotency-key': 'input-1' },
    );
    expectStatus(answer, 201);
    expectProcessed(answer.body, 'cash_input', 'input-1');
    expectLegs(answer.body.process, [[await systemCoin('cash_desk'), serial, '50.50']]);
    expect(answer.body.process.description).toBe('Cash input by Alan Turing');
    // The process is the family's record (issue 45): the desk's coin received the cash, net of nothing.
    expect(answer.body.process).toMatchObject({
      cashAmount: '50.50',
      netAmount: '50.50',
      coin: { serial, type: 'client' },
      clientCoin: { serial },
      incomingAmount: '50.50',
      outgoingAmount: null,
      operationAmountDetails: { senderGrossAmount: '50.50', recipientNetAmount: '50.50', senderFee: '0.00' },
      invoiceAmount: null,
      invoiceIdentifier: null,
      merchantCoinSerial: null,
      posCompanyName: null,
      categoryName: null,
      categoryImageLink: null,
      children: [],
    });
    expect(await movedBy(accountant, answer.body.process.id)).toHaveLength(1);
  });

  it('POST /collects — cash collected from the desk into the cash_desk system coin, never more than the desk holds', async () => {
    const serial = desk.coins[0].serial;
    const held = await amountOf(serial);
    const answer = await req(
      'POST',
      '/collects',
      cfo.token,
      { amount: 20, serial, fullName: 'Grace Hopper' },
      { 'idempotency-key': 'collect-1' },
    );
    expectStatus(answer, 201);
    expectProcessed(answer.body, 'cash_collect', 'collect-1');
    expectLegs(answer.body.process, [[serial, await systemCoin('cash_desk'), '20.00']]);
    // The family's record (issue 45): the cash left the desk's coin.
    expect(answer.body.process).toMatchObject({
      cashAmount: '20.00',
      coin: { serial },
      clientCoin: { serial },
      outgoingAmount: '20.00',
      incomingAmount: null,
    });
    expect(await movedBy(cfo, answer.body.process.id)).toHaveLength(1);
    const left = await amountOf(serial);
    expect(left).toBe(new Dec(held).minus(20).toFixed(2));
    // More than the desk holds is a 409, and nothing moves.
    const over = await req('POST', '/collects', cfo.token, { amount: '100000.00', serial, fullName: 'Grace Hopper' });
    expectError(over, 409, 'exception.coin.insufficient_funds');
    expect(await amountOf(serial)).toBe(left);
  });

  it('POST /gate-investments — the gate providers’ settlement coin is prefunded from the bank-settlement coin', async () => {
    const settlement = await systemCoin('gate_settlement');
    const before = await amountOf(settlement);
    const answer = await req('POST', '/gate-investments', accountant.token, {
      amount: 1000,
      serial: settlement,
      fullName: 'Katherine Johnson',
    });
    expectStatus(answer, 201);
    expect(answer.body.process).toMatchObject({ type: 'gate_investment', status: 'processed', requestIdentifier: null });
    // Between two system coins (issue 45): no customer coin, no cash; the record's coin is the paying one.
    expect(answer.body.process).toMatchObject({
      clientCoin: null,
      cashAmount: null,
      netAmount: '1000.00',
      coin: { serial: await systemCoin('bank_settlement'), technical: true },
      outgoingAmount: '1000.00',
      incomingAmount: null,
    });
    expectLegs(answer.body.process, [[await systemCoin('bank_settlement'), settlement, '1000.00']]);
    expect(await amountOf(settlement)).toBe(new Dec(before).plus(1000).toFixed(2));
    expect(await movedBy(accountant, answer.body.process.id)).toHaveLength(1);
  });

  it('refuses bad input with a clear 4xx and moves nothing', async () => {
    const serial = desk.coins[0].serial;
    const settlement = await systemCoin('gate_settlement');
    const customer = await world.user();
    const customerCoin = await world.coin(customer, '10.00');
    const before = [await amountOf(serial), await amountOf(settlement), await amountOf(customerCoin.serial)];
    const body = { amount: '5.00', serial, fullName: 'Ada Byron' };
    expectError(await req('POST', '/collects', cfo.token, { ...body, amount: 0 }), 400, 'exception.validation', 'amount');
    expectError(await req('POST', '/inputs', cfo.token, { ...body, amount: '-1' }), 400, 'exception.validation', 'amount');
    expectError(await req('POST', '/inputs', cfo.token, { ...body, amount: '1.001' }), 400, 'exception.validation', 'amount');
    expectError(await req('POST', '/investments', cfo.token, { ...body, fullName: '' }), 400, 'exception.validation', 'fullName');
    expectError(
      await req('POST', '/investments', cfo.token, { ...body, fullName: 'x'.repeat(256) }),
      400,
      'exception.validation',
      'fullName',
    );
    expectError(await req('POST', '/investments', cfo.token, { amount: '5.00', serial }), 400, 'exception.validation', 'fullName');
    expectError(await req('POST', '/investments', cfo.token, { ...body, serial: 'abc' }), 400, 'exception.validation', 'serial');
    expectError(await req('POST', '/collects', cfo.token, { ...body, serial: '999999999' }), 404, 'exception.coin.not_found');
    // A customer's coin is no cash desk's, the settlement coin no desk's, and a desk's coin no gate provider's.
    expectError(await req('POST', '/collects', cfo.token, { ...body, serial: customerCoin.serial }), 400, 'exception.validation', 'serial');
    expectError(await req('POST', '/inputs', cfo.token, { ...body, serial: settlement }), 400, 'exception.validation', 'serial');
    expectError(await req('POST', '/gate-investments', cfo.token, body), 400, 'exception.validation', 'serial');
    // Customers and cashiers may not move system money.
    expectError(await req('POST', '/investments', customer.token, body), 403);
    const cashier = await world.user({ role: 'cashier', organizationId: desk.id });
    expectError(await req('POST', '/collects', cashier.token, body), 403);
    expect([await amountOf(serial), await amountOf(settlement), await amountOf(customerCoin.serial)]).toEqual(before);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('answers 404 for an unknown coin, 409 for an inactive issuer’s coin and 422 for a key reused with another body', async () => {
    // A second currency and issuer: a desk's cash coin and the gate providers' settlement coin of it, then the issuer off.
    const currency = await aCurrency(world.server, world.admin);
    const issuer = await anIssuer(world.server, world.admin, currency.code, 'Retired bank');
    const created = await req('POST', '/cash-desks', world.admin, { name: 'Retired desk', issuerIds: [issuer.id] });
    expectStatus(created, 201);
    const deskCoin = created.body.cashDesk.coins[0].serial;
    const product = await req('POST', '/gate/products', world.admin, {
      gateProviderId: provider.id,
      name: 'Retired mobile',
      currency: currency.code,
      minAmount: '1.00',
      maxAmount: '500.00',
      fields: [{ name: 'phone', type: 'string', required: true }],
    });
    expectStatus(product, 201);
    const coins = await req('GET', `/organizations/${provider.id}/provider-coins`, cfo.token);
    const gateCoin = coins.body.coins.find((c: any) => c.issuer.id === issuer.id).serial;
    expectStatus(await req('POST', '/investments', cfo.token, { amount: '10.00', serial: deskCoin, fullName: 'Ada Byron' }), 201);
    expectStatus(await req('PATCH', `/issuers/${issuer.id}`, world.admin, { active: false }), 200);
    const body = { amount: '5.00', serial: deskCoin, fullName: 'Ada Byron' };
    for (const path of ['/inputs', '/collects', '/investments']) {
      expectError(await req('POST', path, cfo.token, body), 409, 'exception.coin.inactive');
      expectError(await req('POST', path, cfo.token, { ...body, serial: '999999999' }), 404, 'exception.coin.not_found');
    }
    expectError(await req('POST', '/gate-investments', cfo.token, { ...body, serial: gateCoin }), 409, 'exception.coin.inactive');
    expectError(await req('POST', '/gate-investments', cfo.token, { ...body, serial: '999999999' }), 404, 'exception.coin.not_found');
    expect(await amountOf(deskCoin)).toBe('10.00');

    const serial = desk.coins[0].serial;
    const settlement = await systemCoin('gate_settlement');
    for (const [path, coin] of [
      ['/inputs', serial],
      ['/collects', serial],
      ['/investments', serial],
      ['/gate-investments', settlement],
    ]) {
      const key = { 'idempotency-key': `reused-${path}` };
      expectStatus(await req('POST', path, accountant.token, { amount: '1.00', serial: coin, fullName: 'Ada Byron' }, key), 201);
      const before = await amountOf(coin);
      expectError(await req('POST', path, accountant.token, { amount: '2.00', serial: coin, fullName: 'Ada Byron' }, key), 422);
      expect(await amountOf(coin)).toBe(before);
    }
  });

  it('shows the operations in the history under their family names', async () => {
    const history = await req('POST', '/transactions/view', cfo.token, {
      filter: { types: ['cash_collect', 'cash_input', 'cash_investment', 'gate_investment'] },
      pageSize: 50,
    });
    expectStatus(history, 200);
    expect(new Set(history.body.records.map((r: any) => r.type))).toEqual(
      new Set(['cash_collect', 'cash_input', 'cash_investment', 'gate_investment']),
    );
  });
});
