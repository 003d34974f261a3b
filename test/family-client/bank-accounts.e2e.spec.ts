import type { Actor } from '../helpers/actors';
import { expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * Issue 32: the family's compliance screen of bank accounts runs on finapi unchanged. Accounts wait for approval
 * (BANK_ACCOUNTS_REQUIRE_APPROVAL): the screen lists every organization's, sorted by the bank's name, and approves or
 * rejects them with no body; only an approved account takes withdrawals.
 */
describe('family client: bank accounts of the compliance screen (issue 32)', () => {
  const world = moneyWorld({ env: { BANK_ACCOUNTS_REQUIRE_APPROVAL: 'true' } });
  const post = (path: string, token: string, body?: Record<string, unknown>) =>
    world.server.request('POST', `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });
  let compliance: Actor;
  beforeAll(async () => {
    compliance = await world.user({ role: 'compliance_manager' });
  });

  /** A customer's new account (PENDING under the setting). */
  const anAccount = async (owner: Actor, iban: string, bankName: string) => {
    const created = await post('/bank-accounts', owner.token, { iban, accountHolder: 'Ann Lee', bankName, bic: 'COBADEFFXXX' });
    expectStatus(created, 201);
    expect(created.body.bankAccount.status).toBe('PENDING');
    return created.body.bankAccount as { id: string; iban: string };
  };

  /** The compliance screen's own actions of a kind. */
  const actionsOf = async (action: string) => {
    const page = await post('/users/view/actions', world.admin, { filter: { userIds: [compliance.id], actions: [action] }, pageSize: 100 });
    expectStatus(page, 200);
    return page.body.records as { details: Record<string, unknown> }[];
  };

  it("POST /bank-accounts/view — the compliance screen's body: every organization's accounts, its filters and sort", async () => {
    const ann = await world.user();
    const bob = await world.user({ role: 'merchant' });
    const annAccount = await anAccount(ann, 'DE89370400440532013000', 'Zeta Bank');
    const bobAccount = await anAccount(bob, 'GB82WEST12345698765432', 'alpha bank');
    const view = await post('/bank-accounts/view', compliance.token, {
      pageNumber: 0,
      pageSize: 20,
      filter: { statuses: ['PENDING'], userIds: [ann.id, bob.id] },
      sort: { bankName: 'asc' },
    });
    expectStatus(view, 200);
    expect(view.body.records.map((r: { id: string }) => r.id)).toEqual([bobAccount.id, annAccount.id]);
    // What the table and the modal read.
    expect(view.body.records[1]).toMatchObject({
      id: annAccount.id,
      userId: ann.id,
      status: 'PENDING',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      details: {
        fullName: 'Ann Lee',
        iban: 'DE89370400440532013000',
        bankAccountNumber: 'DE89370400440532013000',
        name: 'Zeta Bank',
        bic: 'COBADEFFXXX',
        swift: 'COBADEFFXXX',
      },
    });

    // Each of the screen's filters narrows: the status (one or a list), the number, the IBAN, the bank, the SWIFT code.
    const ids = async (filter: Record<string, unknown>) => {
      const page = await post('/bank-accounts/view', compliance.token, {
        filter: { userIds: [ann.id, bob.id], ...filter },
        sort: { bankName: 'desc' },
      });
      expectStatus(page, 200);
      return page.body.records.map((r: { id: string }) => r.id);
    };
    expect(await ids({})).toEqual([annAccount.id, bobAccount.id]);
    expect(await ids({ statuses: 'PENDING', bankAccountNumber: '3704 0044' })).toEqual([annAccount.id]);
    expect(await ids({ iban: 'GB82' })).toEqual([bobAccount.id]);
    expect(await ids({ bankName: 'ALPHA' })).toEqual([bobAccount.id]);
    expect(await ids({ swift: 'cobade' })).toEqual([annAccount.id, bobAccount.id]);
    expect(await ids({ statuses: ['APPROVED', 'REJECTED'] })).toEqual([]);

    // A customer still sees only their own accounts.
    const own = await post('/bank-accounts/view', ann.token, { sort: { status: 'asc' } });
    expectStatus(own, 200);
    expect(own.body.records.map((r: { id: string }) => r.id)).toEqual([annAccount.id]);

    // Bad input: a sort or filter field the screen does not have, an unknown status.
    expectError(await post('/bank-accounts/view', compliance.token, { sort: { iban: 'asc' } }), 400, 'exception.validation', 'sort.iban');
    expectError(await post('/bank-accounts/view', compliance.token, { filter: { statuses: ['OPEN'] } }), 400, 'exception.validation');
    expectError(await post('/bank-accounts/view', compliance.token, { filter: { userIds: ['x'] } }), 400, 'exception.validation');
    // A member of staff without the approval permission is refused.
    const support = await world.user({ role: 'customer_support' });
    expectError(await post('/bank-accounts/view', support.token, {}), 403);
  });

  it('POST /bank-accounts/{id}/approve — the modal approves with no body; the account then takes withdrawals', async () => {
    const ann = await world.user();
    const coin = await world.coin(ann, '100.00');
    const account = await anAccount(ann, 'DE89370400440532013000', 'Commerzbank');
    // Pending: no withdrawal to it, by its id or by its details, and nothing is held.
    const withdraw = (key: string, body: Record<string, unknown>) =>
      world.server.request('POST', '/api/v1/bank-withdrawals/create-request', {
        token: ann.token,
        headers: { 'idempotency-key': key },
        body: { coinSerial: coin.serial, amount: '10.00', ...body },
      });
    expectError(await withdraw('pending-1', { bankAccountId: account.id }), 409, 'exception.bank_account.not_approved');
    const typed = { bankDetails: { iban: 'DE89370400440532013000', accountHolder: 'Ann Lee' } };
    expectError(await withdraw('pending-2', typed), 409, 'exception.bank_account.not_approved');
    const unknown = { bankDetails: { iban: 'GB82WEST12345698765432', accountHolder: 'Ann Lee' } };
    expectError(await withdraw('pending-3', unknown), 409, 'exception.bank_account.not_approved');
    const coins = async () => (await world.server.request('GET', '/api/v1/coins', { token: ann.token })).body.coins[0];
    expect(await coins()).toMatchObject({ amount: '100.00', availableAmount: '100.00' });

    const approved = await post(`/bank-accounts/${account.id}/approve`, compliance.token);
    expectStatus(approved, 200);
    expect(approved.body.bankAccount).toMatchObject({ id: account.id, status: 'APPROVED', userId: ann.id });
    expect((await actionsOf('bank_account_approved')).find((a) => a.details.bankAccountId === account.id)!.details).toMatchObject({
      organizationId: ann.organizationId,
      from: 'PENDING',
      to: 'APPROVED',
    });
    expectStatus(await withdraw('approved-1', { bankAccountId: account.id }), 201);
    const byDetails = await withdraw('approved-2', typed);
    expectStatus(byDetails, 201);
    expect(byDetails.body.bankWithdrawal.bankAccountId).toBe(account.id);
    expect(await coins()).toMatchObject({ amount: '100.00', availableAmount: '80.00' });

    // Approved again: 409; unknown: 404; the client's `undefined`: 400; a customer may not approve.
    expectError(await post(`/bank-accounts/${account.id}/approve`, compliance.token), 409, 'exception.bank_account.decided');
    expectError(
      await post('/bank-accounts/00000000-0000-4000-8000-00000000abcd/approve', compliance.token),
      404,
      'exception.bank_account.not_found',
    );
    expectError(await post('/bank-accounts/undefined/approve', compliance.token), 400, 'exception.validation', 'id');
    expectError(await post(`/bank-accounts/${account.id}/reject`, ann.token), 403);

    // A new IBAN waits for approval again.
    const changed = await world.server.request('PATCH', `/api/v1/bank-accounts/${account.id}`, {
      token: ann.token,
      body: { iban: 'GB82WEST12345698765432' },
    });
    expectStatus(changed, 200);
    expect(changed.body.bankAccount.status).toBe('PENDING');
  });

  it('POST /bank-accounts/{id}/reject — the modal rejects with no body; the account takes no withdrawals', async () => {
    const bob = await world.user({ role: 'merchant' });
    const coin = await world.coin(bob, '50.00');
    const account = await anAccount(bob, 'DE89370400440532013000', 'Commerzbank');
    const rejected = await post(`/bank-accounts/${account.id}/reject`, compliance.token);
    expectStatus(rejected, 200);
    expect(rejected.body.bankAccount).toMatchObject({ id: account.id, status: 'REJECTED' });
    expect((await actionsOf('bank_account_rejected')).find((a) => a.details.bankAccountId === account.id)!.details).toMatchObject({
      from: 'PENDING',
      to: 'REJECTED',
    });
    expectError(await post(`/bank-accounts/${account.id}/reject`, compliance.token), 409, 'exception.bank_account.decided');
    const refused = await world.server.request('POST', '/api/v1/bank-withdrawals/create-request', {
      token: bob.token,
      headers: { 'idempotency-key': 'rejected-1' },
      body: { coinSerial: coin.serial, amount: '10.00', bankAccountId: account.id },
    });
    expectError(refused, 409, 'exception.bank_account.not_approved');
    // The screen lists it under its filter; an administrator may decide too.
    const view = await post('/bank-accounts/view', compliance.token, { filter: { statuses: ['REJECTED'], userIds: [bob.id] } });
    expect(view.body.records.map((r: { id: string }) => r.id)).toEqual([account.id]);
    expectStatus(await post(`/bank-accounts/${account.id}/approve`, world.admin), 200);
  });
});
