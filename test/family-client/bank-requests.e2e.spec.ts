import { aFee, percent } from '../helpers/commissions';
import { coinOf, expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * Issue 31: the family's web client runs on finapi unchanged. Each test replays a call of its top-up, withdrawal and
 * wallet screens with the body its call site sends, and checks the fields the screen reads.
 */
describe('family client: bank top-ups, bank withdrawals and cash desks (issue 31)', () => {
  const world = moneyWorld();
  const post = (path: string, token: string, body?: Record<string, unknown>) =>
    world.server.request('POST', `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });

  /** What the request modals read of a record: its number, amount, coin and bank. */
  const expectClientFields = (record: Record<string, unknown>, coinSerial: string, organizationId: string) => {
    expect(Object.keys(record.bankInfo as object).sort()).toEqual(['address', 'bic', 'city', 'country', 'name', 'swift', 'zipCode']);
    expect(record).toMatchObject({
      id: expect.any(String),
      requestIdentifier: expect.any(Number),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      status: expect.any(String),
      clientCoin: {
        serial: coinSerial,
        name: expect.any(String),
        organizationId,
        organizationName: expect.any(String),
        technical: false,
        type: 'client',
        issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
      },
    });
  };

  /** A top-up request of a new customer's coin, as the client's payments screen makes it. */
  const topUpRequest = async (amount = '40.00') => {
    const owner = await world.user();
    const coin = await world.coin(owner);
    const created = await post('/bank-top-ups/create-request', owner.token, { coinSerial: coin.serial, amount, fullName: 'Ann Lee' });
    expectStatus(created, 201);
    return { owner, coin, request: created.body.bankTopUp };
  };

  /** A withdrawal request from a funded merchant coin. */
  const withdrawalRequest = async () => {
    const owner = await world.user({ role: 'merchant' });
    const coin = await world.coin(owner, '100.00');
    const created = await post('/bank-withdrawals/create-request', owner.token, {
      coinSerial: coin.serial,
      amount: '30.00',
      bankDetails: { iban: 'DE89370400440532013000', accountHolder: 'Ann Lee', bankName: 'Commerzbank', bic: 'COBADEFFXXX' },
    });
    expectStatus(created, 201);
    return { owner, coin, request: created.body.bankWithdrawal };
  };

  it("POST /bank-top-ups/view — the top-up screen's body", async () => {
    const { owner, coin } = await topUpRequest('12.50');
    const view = await post('/bank-top-ups/view', world.admin, {
      pageNumber: 0,
      pageSize: 20,
      filter: {
        startCreatedDate: new Date(Date.now() - 3_600_000).toISOString(),
        finishCreatedDate: new Date(Date.now() + 3_600_000).toISOString(),
        coinSerials: [coin.serial],
        orgIds: [owner.organizationId],
        requestStatuses: 'new',
      },
      sort: { createdAt: 'desc' },
    });
    expectStatus(view, 200);
    expect(view.body.records).toHaveLength(1);
    expectClientFields(view.body.records[0], coin.serial, owner.organizationId);
    expect(view.body.records[0]).toMatchObject({ cashAmount: '12.50', fullName: 'Ann Lee', status: 'new' });

    const none = await post('/bank-top-ups/view', world.admin, {
      filter: {
        coinSerials: [coin.serial],
        requestStatuses: ['processed'],
        finishCreatedDate: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expectStatus(none, 200);
    expect(none.body.records).toEqual([]);
  });

  it('POST /bank-top-ups/{}/accept — the modal passes the requestIdentifier, no body', async () => {
    const { owner, coin, request } = await topUpRequest('40.00');
    const accepted = await post(`/bank-top-ups/${request.requestIdentifier}/accept`, world.admin);
    expectStatus(accepted, 200);
    expect(accepted.body.bankTopUp).toMatchObject({ id: request.id, requestIdentifier: request.requestIdentifier, status: 'processed' });
    const coins = await world.server.request('GET', '/api/v1/coins', { token: owner.token });
    expect(coins.body.coins.find((c: { serial: string }) => c.serial === coin.serial).amount).toBe('40.00');
    // An unknown number is a 404 like an unknown id; what is neither (the client's `undefined`) a 400.
    expectError(await post('/bank-top-ups/999999999/accept', world.admin), 404, 'exception.bank_top_up.not_found');
    expectError(await post('/bank-top-ups/undefined/accept', world.admin), 400, 'exception.validation', 'id');
  });

  it('POST /bank-top-ups/{}/decline — no body, by the requestIdentifier', async () => {
    const { request } = await topUpRequest();
    const declined = await post(`/bank-top-ups/${request.requestIdentifier}/decline`, world.admin);
    expectStatus(declined, 200);
    expect(declined.body.bankTopUp).toMatchObject({ id: request.id, status: 'declined', declineReason: null });
  });

  it("POST /bank-top-ups/calculate — the wallet top-up form's body", async () => {
    const owner = await world.user();
    const coin = await world.coin(owner);
    const calculated = await post('/bank-top-ups/calculate', owner.token, { amount: 25, coin: coin.serial });
    expectStatus(calculated, 200);
    expect(calculated.body).toMatchObject({
      amountToSend: '25.00',
      commissionAmount: '0.00',
      currency: { code: world.currency.code },
    });
  });

  it("POST /bank-withdrawals/view — the withdrawal screen's body", async () => {
    const { owner, coin } = await withdrawalRequest();
    const view = await post('/bank-withdrawals/view', world.admin, {
      pageNumber: 0,
      pageSize: 20,
      filter: {
        startCreatedDate: new Date(Date.now() - 3_600_000).toISOString(),
        coinSerials: [coin.serial],
        requestStatuses: 'pending',
      },
      sort: { createdAt: 'desc' },
    });
    expectStatus(view, 200);
    expect(view.body.records).toHaveLength(1);
    expectClientFields(view.body.records[0], coin.serial, owner.organizationId);
    expect(view.body.records[0]).toMatchObject({
      cashAmount: '30.00',
      fullName: 'Ann Lee',
      status: 'pending',
      bankInfo: { name: 'Commerzbank', bic: 'COBADEFFXXX', swift: 'COBADEFFXXX' },
    });
  });

  /** What the accountant's withdrawal modal reads of `transactions[0]`, and the rest of the family's shape of a leg. */
  const expectLeg = (leg: Record<string, unknown>) => {
    expect(Object.keys(leg).sort()).toEqual(['amount', 'createdAt', 'from', 'id', 'issuer', 'performedAt', 'to', 'type', 'updatedAt']);
    expect(leg).toMatchObject({
      id: expect.any(String),
      type: expect.any(String),
      performedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      updatedAt: expect.any(String),
      issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
    });
    for (const side of [leg.from, leg.to]) {
      expect(Object.keys(side as object).sort()).toEqual([
        'issuer',
        'name',
        'organizationId',
        'organizationName',
        'serial',
        'technical',
        'type',
      ]);
    }
  };

  it("POST /bank-withdrawals/view — the accountant's screen: a customer's request shows its transactions[0] in the modal, which accepts it", async () => {
    const accountant = await world.user({ role: 'accountant' });
    // A customer with a 1 % fee on withdrawals asks one from the wallet screen, with that form's body.
    const customer = await world.user();
    await aFee(world.server, world.admin, {
      organizationId: customer.organizationId,
      issuerId: world.issuer.id,
      flow: 'bank_withdrawal',
      conditions: percent('1'),
    });
    const coin = await world.coin(customer, '100.00');
    const asked = await post('/bank-withdrawals', customer.token, {
      amount: 30,
      coin: coin.serial,
      bankDetails: {
        bankAccountNumber: null,
        address: null,
        bic: null,
        fullName: 'Ann Lee',
        iban: 'DE89370400440532013000',
        name: 'Commerzbank',
        swift: 'COBADEFFXXX',
      },
    });
    expectStatus(asked, 201);
    const id = asked.body.bankWithdrawal.id;
    // Staff paid another customer out at once: that withdrawal's first transaction is its payout.
    const other = await world.user({ role: 'merchant' });
    const otherCoin = await world.coin(other, '50.00');
    const direct = await post('/bank-withdrawals', world.admin, {
      coinSerial: otherCoin.serial,
      amount: '20.00',
      bankDetails: { iban: 'DE89370400440532013000', accountHolder: 'Mia Wong' },
    });
    expectStatus(direct, 201);
    expect(direct.body.bankWithdrawal.kind).toBe('direct');

    // The screen's body with no filter chosen: its data table sends the page and an empty filter, the page the sort.
    const screen = { filter: {}, pageNumber: 0, sort: { createdAt: 'desc' } };
    const view = await post('/bank-withdrawals/view', accountant.token, screen);
    expectStatus(view, 200);
    // "View details" opens on any row: every record has a first transaction.
    for (const record of view.body.records) expectLeg(record.transactions[0]);
    const pending = view.body.records.find((r: { id: string }) => r.id === id);
    expect(pending).toMatchObject({
      status: 'pending',
      type: 'bank_redeem',
      iban: 'DE89370400440532013000',
      children: [],
      cashAmount: '30.00',
      fullName: 'Ann Lee',
    });
    // A request's first transaction is its hold: what the customer pays (the amount and the fee), reserved on the coin.
    expect(pending.transactions).toHaveLength(1);
    const [hold] = pending.transactions;
    expect(hold).toMatchObject({
      type: 'hold',
      amount: '30.30',
      from: {
        serial: coin.serial,
        name: expect.any(String),
        organizationId: customer.organizationId,
        organizationName: expect.any(String),
        technical: false,
        type: 'client',
        issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
      },
      to: { technical: true, type: 'system' },
    });
    expect(hold.performedAt).toBe(hold.createdAt);
    expect(Date.parse(hold.performedAt)).toBeGreaterThanOrEqual(Date.parse(pending.createdAt) - 1000);
    const paidOut = view.body.records.find((r: { id: string }) => r.id === direct.body.bankWithdrawal.id);
    expect(paidOut.transactions).toEqual([
      expect.objectContaining({ type: 'redeem', amount: '20.00', from: expect.objectContaining({ serial: otherCoin.serial }) }),
    ]);

    // Accept in the modal: the request's number in the path, no body; the page reads only whether it failed.
    const accepted = await post(`/bank-withdrawals/${pending.requestIdentifier}/accept`, accountant.token);
    expectStatus(accepted, 200);
    expect(accepted.body.bankWithdrawal).toMatchObject({ id, status: 'processed' });
    expect(accepted.body.bankWithdrawal.transactions.map((t: { type: string }) => t.type)).toEqual(['hold', 'redeem', 'commission']);

    // The table reloads: the request is processed; its details show the hold (captured) first, then what moved.
    const reloaded = await post('/bank-withdrawals/view', accountant.token, screen);
    expectStatus(reloaded, 200);
    const processed = reloaded.body.records.find((r: { id: string }) => r.id === id);
    expect(processed.status).toBe('processed');
    for (const leg of processed.transactions) expectLeg(leg);
    const [captured, payout, fee] = processed.transactions;
    expect(captured).toMatchObject({ id: hold.id, type: 'hold', amount: '30.30', performedAt: hold.performedAt });
    expect(Date.parse(captured.updatedAt)).toBeGreaterThanOrEqual(Date.parse(hold.performedAt));
    // The legs were posted when the hold was captured.
    expect(payout.performedAt).toBe(captured.updatedAt);
    expect(payout).toMatchObject({ type: 'redeem', amount: '30.00', from: { serial: coin.serial }, to: { serial: hold.to.serial } });
    expect(fee).toMatchObject({ type: 'commission', amount: '0.30', from: { serial: coin.serial }, to: { technical: true } });
    expect(await coinOf(world.server, customer.token, coin.serial)).toMatchObject({ amount: '69.70', availableAmount: '69.70' });
  });

  it('POST /bank-withdrawals/{}/accept — the modal passes the requestIdentifier, no body', async () => {
    const { request } = await withdrawalRequest();
    const accepted = await post(`/bank-withdrawals/${request.requestIdentifier}/accept`, world.admin);
    expectStatus(accepted, 200);
    expect(accepted.body.bankWithdrawal).toMatchObject({ id: request.id, status: 'processed' });
    expectError(await post('/bank-withdrawals/999999999/accept', world.admin), 404, 'exception.bank_withdrawal.not_found');
  });

  it('POST /bank-withdrawals/{}/decline — no body, by the requestIdentifier', async () => {
    const { owner, coin, request } = await withdrawalRequest();
    const declined = await post(`/bank-withdrawals/${request.requestIdentifier}/decline`, world.admin);
    expectStatus(declined, 200);
    expect(declined.body.bankWithdrawal).toMatchObject({ id: request.id, status: 'declined', declineReason: null });
    // Nothing moved: the request's only transaction is its hold, released.
    expect(declined.body.bankWithdrawal.transactions).toEqual([expect.objectContaining({ type: 'hold', amount: '30.00' })]);
    const coins = await world.server.request('GET', '/api/v1/coins', { token: owner.token });
    expect(coins.body.coins.find((c: { serial: string }) => c.serial === coin.serial).availableAmount).toBe('100.00');
  });

  it("POST /bank-withdrawals — the merchant's wallet withdrawal form", async () => {
    const merchant = await world.user({ role: 'merchant' });
    const coin = await world.coin(merchant, '100.00');
    const created = await world.server.request('POST', '/api/v1/bank-withdrawals', {
      token: merchant.token,
      headers: { 'idempotency-key': 'family-withdrawal-1' },
      body: {
        amount: 20,
        coin: coin.serial,
        bankDetails: {
          bankAccountNumber: null,
          address: 'Kaiserplatz 1, Aachen',
          bic: null,
          fullName: 'Mia Wong',
          iban: 'DE89370400440532013000',
          name: 'Commerzbank',
          swift: 'COBADEFFXXX',
        },
      },
    });
    expectStatus(created, 201);
    expect(created.body.process).toMatchObject({
      type: 'bank_withdrawal',
      status: 'pending',
      cashAmount: '20.00',
      requestIdentifier: 'family-withdrawal-1',
      clientCoin: { serial: coin.serial, issuer: { currency: world.currency.code } },
    });
    // Whom and where it pays, as the form sent it (issue 45): the bank's name and BIC, the holder and the IBAN; what the
    // service does not keep is null.
    expect(created.body.process.fullName).toBe('Mia Wong');
    expect(created.body.process.bankInfo).toEqual({
      name: 'Commerzbank',
      bic: 'COBADEFFXXX',
      swift: 'COBADEFFXXX',
      fullName: 'Mia Wong',
      iban: 'DE89370400440532013000',
      country: null,
      city: null,
      address: null,
      zipCode: null,
    });
    expect(created.body.bankWithdrawal).toMatchObject({
      kind: 'request',
      status: 'pending',
      requestIdentifier: expect.any(Number),
      bankDetails: { iban: 'DE89370400440532013000', accountHolder: 'Mia Wong', bankName: 'Commerzbank', bic: 'COBADEFFXXX' },
    });
    const coins = await world.server.request('GET', '/api/v1/coins', { token: merchant.token });
    expect(coins.body.coins.find((c: { serial: string }) => c.serial === coin.serial)).toMatchObject({
      amount: '100.00',
      availableAmount: '80.00',
      heldAmount: '20.00',
      // Once the request is accepted, the held 20.00 leaves: what the coin will hold.
      futureAmount: '80.00',
    });
  });

  it("POST /bank-withdrawals/calculate — the wallet withdrawal form's body", async () => {
    const owner = await world.user({ role: 'merchant' });
    const coin = await world.coin(owner, '50.00');
    const calculated = await post('/bank-withdrawals/calculate', owner.token, { coin: coin.serial, amount: 10 });
    expectStatus(calculated, 200);
    expect(calculated.body).toMatchObject({
      amountToSend: '10.00',
      commissionAmount: '0.00',
      currency: { code: world.currency.code },
      issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
    });
  });

  it("POST /cash-desks/view — the wallet withdrawal form's body", async () => {
    const desk = await post('/cash-desks', world.admin, { name: 'Family client desk', issuerIds: [world.issuer.id] });
    expectStatus(desk, 201);
    const empty = await post('/cash-desks', world.admin, { name: 'Desk without cash coins' });
    expectStatus(empty, 201);
    const owner = await world.user();
    const coin = await world.coin(owner);
    const view = await post('/cash-desks/view', owner.token, { coinSerial: coin.serial });
    expectStatus(view, 200);
    expect(view.body.records).toContainEqual(expect.objectContaining({ id: desk.body.cashDesk.id, name: 'Family client desk' }));
    expect(view.body.records.map((d: { id: string }) => d.id)).not.toContain(empty.body.cashDesk.id);
    const stranger = await world.user();
    expectError(await post('/cash-desks/view', stranger.token, { coinSerial: coin.serial }), 404, 'exception.coin.not_found');
  });
});
