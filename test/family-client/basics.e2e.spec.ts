import { expectBalancedLedger, expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * Issue 31: the family web client's calls that worked before the issue, replayed as its screens send them, so they
 * keep working: the catalog store's start-up reads, creating, renaming and closing a wallet, a transfer between
 * wallets, a bank top-up request and deleting a transfer template. Our own values, the client's shapes.
 */
describe('family client: start-up catalogs, wallets, transfers', () => {
  const world = moneyWorld();
  const req = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    world.server.request(method, `/api/v1${path}`, { token, headers, ...(body !== undefined ? { body } : {}) });
  /** The transfer form's body: a COIN payment tool, the amount as a JSON number. */
  const transferBody = (srcValue: string, destValue: string, amount: number | null) => ({
    paymentTool: { type: 'COIN', destValue, srcValue },
    amount,
    description: 'Dinner',
  });

  it('GET /currencies — the catalog store keeps response.currencies', async () => {
    const user = await world.user();
    const answer = await req('GET', '/currencies', user.token);
    expectStatus(answer, 200);
    expect(answer.body.currencies).toEqual(expect.arrayContaining([expect.objectContaining({ code: world.currency.code })]));
  });

  it('GET /issuers — the catalog store keeps response.records; the wallet form offers their ids', async () => {
    const user = await world.user();
    const answer = await req('GET', '/issuers', user.token);
    expectStatus(answer, 200);
    const issuer = answer.body.records.find((r: { id: string }) => r.id === world.issuer.id);
    expect(issuer).toMatchObject({
      id: world.issuer.id,
      sn: expect.anything(),
      currency: expect.objectContaining({ code: world.currency.code }),
    });
    // The issuers table's type declares snPrefix (the create form sends it): the serial number, as text.
    expect(issuer.snPrefix).toBe(String(issuer.sn));
  });

  it('POST /coins — the create-wallet form sends { name, issuerId }', async () => {
    const user = await world.user({ role: 'merchant' });
    const created = await req('POST', '/coins', user.token, { name: 'Travel', issuerId: world.issuer.id });
    expectStatus(created, 201);
    expect(created.body.coin).toMatchObject({ name: 'Travel', serial: expect.stringMatching(/^[0-9]+$/), issuer: { id: world.issuer.id } });
    const list = await req('GET', '/coins', user.token);
    expect(list.body.coins.map((c: { serial: string }) => c.serial)).toContain(created.body.coin.serial);
    expectError(await req('POST', '/coins', user.token, { name: '', issuerId: world.issuer.id }), 400, 'exception.validation');
  });

  it('PATCH /coins/{} — the wallet list renames ({ name }); the settings page sends { name, active } to switch it off and on', async () => {
    const user = await world.user();
    const coin = await world.coin(user);
    const renamed = await req('PATCH', `/coins/${coin.serial}`, user.token, { name: 'Savings' });
    expectStatus(renamed, 200);
    expect(renamed.body.coin).toMatchObject({ serial: coin.serial, name: 'Savings', active: true });
    const off = await req('PATCH', `/coins/${coin.serial}`, user.token, { name: 'Savings', active: false });
    expectStatus(off, 200);
    expect(off.body.coin.active).toBe(false);
    const on = await req('PATCH', `/coins/${coin.serial}`, user.token, { name: 'Savings', active: true });
    expect(on.body.coin.active).toBe(true);
    const stranger = await world.user();
    expectError(await req('PATCH', `/coins/${coin.serial}`, stranger.token, { name: 'Mine' }), 404, 'exception.coin.not_found');
  });

  it('PUT /close/coin/{} — the settings page closes a wallet with { transferToCoinSerial }, empty when there is nothing to move', async () => {
    const user = await world.user();
    const empty = await world.coin(user);
    const closed = await req('PUT', `/close/coin/${empty.serial}`, user.token, { transferToCoinSerial: '' });
    expectStatus(closed, 200);
    expect(closed.body.coin).toMatchObject({ serial: empty.serial, active: false });

    const full = await world.coin(user, '12.34');
    const keep = await world.coin(user);
    expectError(await req('PUT', `/close/coin/${full.serial}`, user.token, { transferToCoinSerial: '' }), 409);
    const moved = await req('PUT', `/close/coin/${full.serial}`, user.token, { transferToCoinSerial: keep.serial });
    expectStatus(moved, 200);
    const coins = (await req('GET', '/coins', user.token)).body.coins as { serial: string; availableAmount: string }[];
    expect(coins.find((c) => c.serial === keep.serial)?.availableAmount).toBe('12.34');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('POST /transfers/calculate — the transfer form prices { paymentTool, amount, description }; reads status, commissionAmountPush, recipientAmountPush, issuer.currency', async () => {
    const payer = await world.user();
    const payee = await world.user();
    const [from, to] = await world.pair(payer, payee, '50.00');
    const priced = await req('POST', '/transfers/calculate', payer.token, transferBody(from.serial, to.serial, 20));
    expectStatus(priced, 200);
    expect(priced.body).toMatchObject({
      status: 'ok',
      commissionAmountPush: '0.00',
      recipientAmountPush: '20.00',
      senderAmountPush: '20.00',
      issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
      paymentToolDetails: { type: 'COIN', srcValue: from.serial, destValue: to.serial, srcId: from.serial, destId: to.serial },
    });
    // The details step and the save-template form show the payee as a payee check names it.
    expect(priced.body.paymentToolDetails.recipientFullName).toBe('Test I.');
    expectError(
      await req('POST', '/transfers/calculate', payer.token, transferBody(from.serial, to.serial, null)),
      400,
      'exception.validation',
    );
  });

  it('POST /transfers — the transfer form sends the same body and reads process; the money moves once', async () => {
    const payer = await world.user();
    const payee = await world.user();
    const [from, to] = await world.pair(payer, payee, '50.00');
    const key = { 'Idempotency-Key': `basics-${from.serial}` };
    const sent = await req('POST', '/transfers', payer.token, transferBody(from.serial, to.serial, 20), key);
    expectStatus(sent, 201);
    expect(sent.body.process).toMatchObject({ id: expect.any(String), status: expect.any(String) });
    const again = await req('POST', '/transfers', payer.token, transferBody(from.serial, to.serial, 20), key);
    expect(again.body.process.id).toBe(sent.body.process.id);
    const coins = (await req('GET', '/coins', payee.token)).body.coins as { serial: string; availableAmount: string }[];
    expect(coins.find((c) => c.serial === to.serial)?.availableAmount).toBe('20.00');
    expectError(
      await req('POST', '/transfers', payer.token, transferBody(from.serial, to.serial, 80)),
      409,
      'exception.coin.insufficient_funds',
    );
    await expectBalancedLedger(world.server, world.admin);
  });

  it('POST /bank-top-ups/create-request — the bank top-up page sends { coinSerial, amount }', async () => {
    const user = await world.user();
    const coin = await world.coin(user);
    const asked = await req('POST', '/bank-top-ups/create-request', user.token, { coinSerial: coin.serial, amount: 75 });
    expectStatus(asked, 201);
    expect(asked.body).toMatchObject({ status: 'ok' });
    const stranger = await world.user();
    expectError(await req('POST', '/bank-top-ups/create-request', stranger.token, { coinSerial: coin.serial, amount: 75 }), 404);
    expectError(
      await req('POST', '/bank-top-ups/create-request', user.token, { coinSerial: coin.serial, amount: Number.NaN }),
      400,
      'exception.validation',
    );
  });

  it('DELETE /templates/transfer/{} — the payment page deletes a saved template; it leaves the list', async () => {
    const payer = await world.user();
    const payee = await world.user();
    const [from, to] = await world.pair(payer, payee, '10.00');
    const saved = await req('POST', '/templates/transfer', payer.token, {
      name: 'Rent',
      paymentTool: { type: 'COIN', srcValue: from.serial, destValue: to.serial },
      amount: 5,
      description: 'Monthly',
    });
    expectStatus(saved, 201);
    const id = saved.body.template.id;
    const stranger = await world.user();
    expectError(await req('DELETE', `/templates/transfer/${id}`, stranger.token), 404);
    expectStatus(await req('DELETE', `/templates/transfer/${id}`, payer.token), 200);
    const list = await req('GET', '/templates/transfer', payer.token);
    expect(list.body.transferTemplates).toEqual([]);
    expectError(await req('DELETE', `/templates/transfer/${id}`, payer.token), 404);
  });
  it('DELETE /points-of-sale/{} — the points-of-sale table deletes one; it leaves GET /points-of-sale, a stranger gets a 404', async () => {
    const merchant = await world.user({ role: 'merchant' });
    const created = await req('POST', '/points-of-sale', merchant.token, { posCompanyName: 'Night kiosk', description: 'Snacks' });
    expectStatus(created, 201);
    const id = created.body.pos.id;
    const stranger = await world.user({ role: 'merchant' });
    expectError(await req('DELETE', `/points-of-sale/${id}`, stranger.token), 404);
    expectStatus(await req('DELETE', `/points-of-sale/${id}`, merchant.token), 200);
    const list = await req('GET', '/points-of-sale', merchant.token);
    expectStatus(list, 200);
    expect(JSON.stringify(list.body)).not.toContain(id);
    expectError(await req('DELETE', `/points-of-sale/${id}`, merchant.token), 404);
  });
});
