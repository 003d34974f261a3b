import type { Actor } from '../helpers/actors';
import { expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * Issue 32: the accountant's request queues of the family's web client — bank top-ups and withdrawals — replayed with
 * the bodies of its top-up and withdrawal screens: the status filter in the family's words, the fields the table and
 * the modal read, and decisions by `requestIdentifier` without a body, each in the action log.
 */
describe('family client: the request queues of the accountant (issue 32)', () => {
  const world = moneyWorld();
  const post = (path: string, token: string, body?: Record<string, unknown>) =>
    world.server.request('POST', `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });
  let accountant: Actor;
  beforeAll(async () => {
    accountant = await world.user({ role: 'accountant' });
  });
  const hour = 3_600_000;
  /** The screens' body: the date range, a coin, a status, newest first. */
  const screenBody = (coinSerial: string, requestStatuses: unknown) => ({
    pageNumber: 0,
    pageSize: 20,
    filter: {
      startCreatedDate: new Date(Date.now() - hour).toISOString(),
      finishCreatedDate: new Date(Date.now() + hour).toISOString(),
      coinSerials: [coinSerial],
      requestStatuses,
    },
    sort: { createdAt: 'desc' },
  });
  const actionsOf = async (action: string) => {
    const page = await post('/users/view/actions', world.admin, { filter: { userIds: [accountant.id], actions: [action] }, pageSize: 100 });
    expectStatus(page, 200);
    return page.body.records as { details: Record<string, unknown> }[];
  };

  const topUpRequest = async () => {
    const owner = await world.user();
    const coin = await world.coin(owner);
    const created = await post('/bank-top-ups/create-request', owner.token, {
      coinSerial: coin.serial,
      amount: '15.00',
      fullName: 'Ann Lee',
    });
    expectStatus(created, 201);
    return { owner, coin, request: created.body.bankTopUp as { id: string; requestIdentifier: number } };
  };
  const withdrawalRequest = async () => {
    const owner = await world.user();
    const coin = await world.coin(owner, '60.00');
    const created = await post('/bank-withdrawals/create-request', owner.token, {
      coinSerial: coin.serial,
      amount: '25.00',
      bankDetails: { iban: 'DE89370400440532013000', accountHolder: 'Ann Lee', bankName: 'Commerzbank', bic: 'COBADEFFXXX' },
    });
    expectStatus(created, 201);
    return { owner, coin, request: created.body.bankWithdrawal as { id: string; requestIdentifier: number } };
  };

  it("POST /bank-top-ups/view — the accountant's queue filters by the family's status `pending`; the modal reads requestStatus and type", async () => {
    const { owner, coin, request } = await topUpRequest();
    const view = await post('/bank-top-ups/view', accountant.token, screenBody(coin.serial, 'pending'));
    expectStatus(view, 200);
    expect(view.body.records).toHaveLength(1);
    expect(view.body.records[0]).toMatchObject({
      id: request.id,
      requestIdentifier: request.requestIdentifier,
      type: 'bank_topup',
      status: 'new',
      requestStatus: 'pending',
      cashAmount: '15.00',
      fullName: 'Ann Lee',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      bankInfo: { bic: null, name: null, swift: null, country: null, city: null, address: null, zipCode: null },
      clientCoin: { serial: coin.serial, organizationId: owner.organizationId, technical: false, type: 'client' },
    });
    // The statuses the screen offers that no request has match nothing; one it does not offer is a 400.
    for (const statuses of ['error', ['rejected', 'declined'], 'processed']) {
      const none = await post('/bank-top-ups/view', accountant.token, screenBody(coin.serial, statuses));
      expectStatus(none, 200);
      expect(none.body.records).toEqual([]);
    }
    expectError(await post('/bank-top-ups/view', accountant.token, screenBody(coin.serial, 'open')), 400, 'exception.validation');
  });

  it('POST /bank-top-ups/{id}/accept — the accountant accepts by requestIdentifier, no body; in the action log', async () => {
    const { coin, request } = await topUpRequest();
    const accepted = await post(`/bank-top-ups/${request.requestIdentifier}/accept`, accountant.token);
    expectStatus(accepted, 200);
    expect(accepted.body.bankTopUp).toMatchObject({ id: request.id, status: 'processed', requestStatus: 'processed' });
    const action = (await actionsOf('bank_top_up_accepted')).find((a) => a.details.bankTopUpRequestId === request.id);
    expect(action!.details).toMatchObject({ operationId: accepted.body.process.id });
    const queue = await post('/bank-top-ups/view', accountant.token, screenBody(coin.serial, 'processed'));
    expect(queue.body.records.map((r: { id: string }) => r.id)).toEqual([request.id]);
    expectError(await post(`/bank-top-ups/${request.requestIdentifier}/accept`, accountant.token), 409, 'exception.bank_top_up.decided');
  });

  it('POST /bank-top-ups/{id}/decline — the accountant declines by requestIdentifier, no body; in the action log', async () => {
    const { request } = await topUpRequest();
    const declined = await post(`/bank-top-ups/${request.requestIdentifier}/decline`, accountant.token);
    expectStatus(declined, 200);
    expect(declined.body.bankTopUp).toMatchObject({ id: request.id, status: 'declined', requestStatus: 'declined' });
    expect((await actionsOf('bank_top_up_declined')).some((a) => a.details.bankTopUpRequestId === request.id)).toBe(true);
    expectError(await post(`/bank-top-ups/${request.requestIdentifier}/decline`, accountant.token), 409, 'exception.bank_top_up.decided');
  });

  it("POST /bank-top-ups/calculate — the accountant's top-up screen: a customer's coin (from GET /organizations/{id}/coins) and a number", async () => {
    const owner = await world.user();
    const coin = await world.coin(owner);
    const wallets = await world.server.request('GET', `/api/v1/organizations/${owner.organizationId}/coins`, { token: accountant.token });
    expectStatus(wallets, 200);
    expect(wallets.body.coins.map((c: { serial: string }) => c.serial)).toEqual([coin.serial]);
    const calculated = await post('/bank-top-ups/calculate', accountant.token, { coinSerial: coin.serial, amount: 40 });
    expectStatus(calculated, 200);
    expect(calculated.body).toMatchObject({
      commissionAmountPush: '0.00',
      recipientAmountPush: '40.00',
      issuer: { currency: world.currency.code },
    });
    // The screen shows them with toFixed(2): on the wire they are JSON numbers (the helper reads them exactly, as text).
    expect(calculated.text).toMatch(/"recipientAmountPush":\s*40\.00/);
  });

  it("POST /bank-withdrawals/view — the accountant's queue: the family's statuses, and what the modal reads", async () => {
    const { owner, coin, request } = await withdrawalRequest();
    const view = await post('/bank-withdrawals/view', accountant.token, screenBody(coin.serial, 'pending'));
    expectStatus(view, 200);
    expect(view.body.records).toHaveLength(1);
    expect(view.body.records[0]).toMatchObject({
      id: request.id,
      requestIdentifier: request.requestIdentifier,
      status: 'pending',
      requestStatus: 'pending',
      cashAmount: '25.00',
      fullName: 'Ann Lee',
      bankInfo: { name: 'Commerzbank', bic: 'COBADEFFXXX', swift: 'COBADEFFXXX' },
      clientCoin: {
        serial: coin.serial,
        organizationId: owner.organizationId,
        organizationName: expect.any(String),
        issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
      },
    });
    // The modal's transactions: the first is the request's hold (no fee here: the amount).
    expect(view.body.records[0].transactions).toEqual([
      expect.objectContaining({ id: expect.any(String), type: 'hold', amount: '25.00', performedAt: expect.any(String) }),
    ]);
    for (const statuses of ['error', 'rejected']) {
      const none = await post('/bank-withdrawals/view', accountant.token, screenBody(coin.serial, statuses));
      expectStatus(none, 200);
      expect(none.body.records).toEqual([]);
    }
    expectError(await post('/bank-withdrawals/view', accountant.token, screenBody(coin.serial, 'new')), 400, 'exception.validation');
  });

  it('POST /bank-withdrawals/{id}/accept — the accountant pays out by requestIdentifier, no body; in the action log', async () => {
    const { owner, coin, request } = await withdrawalRequest();
    const accepted = await post(`/bank-withdrawals/${request.requestIdentifier}/accept`, accountant.token);
    expectStatus(accepted, 200);
    expect(accepted.body.bankWithdrawal).toMatchObject({ id: request.id, status: 'processed', requestStatus: 'processed' });
    expect((await actionsOf('bank_withdrawal_accepted')).some((a) => a.details.bankWithdrawalId === request.id)).toBe(true);
    const coins = await world.server.request('GET', '/api/v1/coins', { token: owner.token });
    expect(coins.body.coins.find((c: { serial: string }) => c.serial === coin.serial)).toMatchObject({
      amount: '35.00',
      availableAmount: '35.00',
    });
  });

  it('POST /bank-withdrawals/{id}/decline — the accountant declines by requestIdentifier, no body; the hold is released', async () => {
    const { owner, coin, request } = await withdrawalRequest();
    const declined = await post(`/bank-withdrawals/${request.requestIdentifier}/decline`, accountant.token);
    expectStatus(declined, 200);
    expect(declined.body.bankWithdrawal).toMatchObject({ id: request.id, status: 'declined', requestStatus: 'declined' });
    expect((await actionsOf('bank_withdrawal_declined')).some((a) => a.details.bankWithdrawalId === request.id)).toBe(true);
    const coins = await world.server.request('GET', '/api/v1/coins', { token: owner.token });
    expect(coins.body.coins.find((c: { serial: string }) => c.serial === coin.serial)).toMatchObject({
      amount: '60.00',
      availableAmount: '60.00',
    });
    expectError(
      await post(`/bank-withdrawals/${request.requestIdentifier}/accept`, accountant.token),
      409,
      'exception.bank_withdrawal.decided',
    );
  });
});
