import { expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * The family web client's transfer templates (its `wallets` and `payments` modules): the calls it makes with the bodies
 * its call sites send, and the answer fields its screens read (see /work/shared/family-client/calls.tsv).
 */
describe('family client: transfer templates', () => {
  const world = moneyWorld();

  /** A payer with 100.00, a payee named Bob, and a template of 12.50 saved with the client's body. */
  const saved = async () => {
    const [payer, payee] = [await world.user(), await world.user({ name: 'Bob Payee' })];
    const [from, to] = await world.pair(payer, payee, '100.00');
    const created = await world.server.request('POST', '/api/v1/templates/transfer', {
      token: payer.token,
      body: {
        name: `Rent ${from.serial}`,
        paymentTool: { type: 'COIN', srcValue: from.serial, destValue: to.serial },
        amount: 12.5,
        description: '',
      },
    });
    expect(created.status).toBe(201);
    return { payer, payee, from, to, template: created.body.template };
  };

  it('POST /templates/transfer — the client saves { name, paymentTool, amount, description }', async () => {
    const { from, to, template } = await saved();
    expect(template).toMatchObject({ payerCoin: from.serial, payeeCoin: to.serial, amount: '12.50', type: 'TRANSFER' });
    expect(template.paymentToolDetails).toMatchObject({
      type: 'COIN',
      srcValue: from.serial,
      destValue: to.serial,
      currency: world.currency.code,
    });
    // The single answers (save, change, delete) carry the coins too, though the client reads only their `error`.
    expect(template.senderCoin).toMatchObject({ serial: from.serial, issuer: { currency: world.currency.code } });
    expect(template.recipientCoin).toMatchObject({ serial: to.serial, issuer: { currency: world.currency.code } });
  });

  it("GET /templates/transfer — the merchant's accounts page: the template its form saves is listed, with every field its card, edit and repeat forms read", async () => {
    const merchant = await world.user({ role: 'merchant', name: 'Corner Shop' });
    const payee = await world.user({ name: 'Bob Payee' });
    await world.coin(merchant, '100.00');
    const to = await world.coin(payee);
    // The page's coins (GET /coins) fill the form's "from wallet"; the recipient's serial is typed in.
    const coins = (await world.server.request('GET', '/api/v1/coins', { token: merchant.token })).body.coins;
    const form = {
      name: 'Supplier',
      paymentTool: { type: 'COIN', destValue: to.serial, srcValue: coins[0].serial },
      amount: '12.5',
      description: '',
    };
    expectStatus(await world.server.request('POST', '/api/v1/templates/transfer', { token: merchant.token, body: form }), 201);

    // The block reloads GET /templates/transfer; its card reads name, amount and senderCoin.issuer.currency
    // (template-card.vue:9: this read threw, and no card showed).
    const list = await world.server.request('GET', '/api/v1/templates/transfer', { token: merchant.token });
    expect(list.status).toBe(200);
    expect(list.body.transferTemplates).toHaveLength(1);
    const [template] = list.body.transferTemplates;
    expect(template).toMatchObject({ name: 'Supplier', amount: '12.50', description: '' });
    expect(template.senderCoin.issuer.currency).toBe(world.currency.code);
    // The paying coin is the family's coin, as the page's own coin answers it.
    const own = await world.server.request('GET', `/api/v1/coins/${coins[0].serial}`, { token: merchant.token });
    expect(template.senderCoin).toEqual(own.body.coin);
    // The receiving coin is another organization's: its serial and issuer, nothing of its owner, balance or state.
    expect(template.recipientCoin).toEqual({
      serial: to.serial,
      issuer: { id: world.issuer.id, sn: expect.any(Number), currency: world.currency.code, symbol: null },
      type: 'client',
    });
    expect(template.paymentToolDetails.recipientFullName).toBe('Bob P.');
    expect(template).not.toHaveProperty('recipientPhoneNumber');
    expect(JSON.stringify(list.body)).not.toMatch(new RegExp(`Bob Payee|${payee.login}|${payee.organizationId}|${payee.id}`));

    // Edit (transfer-template-form.vue) and repeat (transfer-to-wallet-form.vue) read id, name, amount, description,
    // senderCoin.serial and recipientCoin.serial; the edit sends { amount, description, name }.
    const edited = await world.server.request('PATCH', `/api/v1/templates/transfer/${template.id}`, {
      token: merchant.token,
      body: { amount: template.amount, description: 'Weekly', name: template.name },
    });
    expectStatus(edited, 200);
    const again = (await world.server.request('GET', '/api/v1/templates/transfer', { token: merchant.token })).body.transferTemplates;
    expect(again.map((t: typeof template) => [t.id, t.description, t.senderCoin.serial, t.recipientCoin.serial])).toEqual([
      [template.id, 'Weekly', coins[0].serial, to.serial],
    ]);
  });

  it('POST /templates/transfer — a SMART_CARD tool or neither form of the coins is a 400', async () => {
    const payer = await world.user();
    const coin = await world.coin(payer);
    const card = { name: 'Card', paymentTool: { type: 'SMART_CARD', srcValue: coin.serial, destValue: coin.serial }, amount: '1.00' };
    expectError(
      await world.server.request('POST', '/api/v1/templates/transfer', { token: payer.token, body: card }),
      400,
      undefined,
      'paymentTool.type',
    );
    expectError(
      await world.server.request('POST', '/api/v1/templates/transfer', { token: payer.token, body: { name: 'None', amount: '1.00' } }),
      400,
    );
  });

  it("GET /templates/transfer — the wallet screen's list reads transferTemplates[].paymentToolDetails", async () => {
    const { payer, to, template } = await saved();
    const list = await world.server.request('GET', '/api/v1/templates/transfer', { token: payer.token });
    expect(list.status).toBe(200);
    expect(list.body.transferTemplates).toHaveLength(1);
    expect(list.body.transferTemplates[0]).toMatchObject({ id: template.id, name: template.name, amount: '12.50' });
    expect(list.body.transferTemplates[0].paymentToolDetails).toMatchObject({
      destValue: to.serial,
      recipientFullName: expect.any(String),
    });
    // Another user sees none of them.
    const stranger = await world.user();
    expect((await world.server.request('GET', '/api/v1/templates/transfer', { token: stranger.token })).body.transferTemplates).toEqual([]);
  });

  it('POST /templates/transfer/view — the payment form sends { filter: { paymentToolType }, pageNumber, pageSize }; reads records[].paymentToolDetails', async () => {
    const { payer, template } = await saved();
    // payment-to.vue's filter, with the page app-custom-select asks for first.
    const coins = await world.server.request('POST', '/api/v1/templates/transfer/view', {
      token: payer.token,
      body: { filter: { paymentToolType: 'COIN' }, pageNumber: 0, pageSize: 20 },
    });
    expect(coins.status).toBe(200);
    expect(coins.body.records.map((r: { id: string }) => r.id)).toEqual([template.id]);
    expect(coins.body.records[0].paymentToolDetails.currency).toBe(world.currency.code);
    expect(coins.body.records[0].senderCoin.issuer.currency).toBe(world.currency.code);
    expect(coins.body.records[0].recipientCoin.serial).toBe(template.payeeCoin);
    const cards = await world.server.request('POST', '/api/v1/templates/transfer/view', {
      token: payer.token,
      body: { filter: { paymentToolType: 'SMART_CARD' } },
    });
    expect(cards.body.records).toEqual([]);
  });

  it('POST /templates/transfer/{id}/calculate — { amount }; reads recipientAmountPush, issuer.currency and paymentToolDetails', async () => {
    const { payer, from, to, template } = await saved();
    const price = await world.server.request('POST', `/api/v1/templates/transfer/${template.id}/calculate`, {
      token: payer.token,
      body: { amount: '20.00' },
    });
    expect(price.status).toBe(200);
    expect(price.body).toMatchObject({
      recipientAmountPush: '20.00',
      issuer: { id: world.issuer.id, sn: expect.any(Number), currency: world.currency.code },
    });
    // The confirmation step (transfer-details.vue) shows srcValue, destValue and the payee as a payee check names it.
    expect(price.body.paymentToolDetails).toEqual({ ...template.paymentToolDetails, srcValue: from.serial, destValue: to.serial });
    expect(price.body.paymentToolDetails.recipientFullName).toBe('Bob P.');
  });

  it('POST /templates/transfer/{id}/execute — { amount } moves it once, answers process.id; a retry with its key moves nothing more', async () => {
    const { payer, payee, from, to, template } = await saved();
    const headers = { 'Idempotency-Key': `template-${template.id}` };
    const sent = await world.server.request('POST', `/api/v1/templates/transfer/${template.id}/execute`, {
      token: payer.token,
      headers,
      body: { amount: '30.00' },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.process.id).toEqual(expect.any(String));
    // The payment form keeps `response.process?.id || response.businessProcessId` (payment-to.vue:386) and offers to save
    // the payment as a template by that id: the family's names for the operation are answered beside `process`.
    expect(sent.body).toMatchObject({
      businessProcessId: sent.body.process.id,
      businessProcessStatus: 'processed',
      templateId: template.id,
    });
    expectStatus(
      await world.server.request('POST', `/api/v1/templates/transfer/operation/${sent.body.businessProcessId}`, {
        token: payer.token,
        body: { name: `Again ${template.id}`, amount: 30, description: '', reusable: true },
      }),
      201,
    );
    const again = await world.server.request('POST', `/api/v1/templates/transfer/${template.id}/execute`, {
      token: payer.token,
      headers,
      body: { amount: '30.00' },
    });
    expect(again.body.process.id).toBe(sent.body.process.id);
    const [payerCoin, payeeCoin] = [
      await world.server.request('GET', `/api/v1/coins/${from.serial}`, { token: payer.token }),
      await world.server.request('GET', `/api/v1/coins/${to.serial}`, { token: payee.token }),
    ];
    expect([payerCoin.body.coin.amount, payeeCoin.body.coin.amount]).toEqual(['70.00', '30.00']);
    // Without an amount: the template's 12.50. More than the coin holds: a 409 and nothing moves.
    expect(
      (await world.server.request('POST', `/api/v1/templates/transfer/${template.id}/execute`, { token: payer.token, body: {} })).status,
    ).toBe(201);
    const tooMuch = await world.server.request('POST', `/api/v1/templates/transfer/${template.id}/execute`, {
      token: payer.token,
      body: { amount: '500.00' },
    });
    expect(tooMuch.status).toBe(409);
    expect((await world.server.request('GET', `/api/v1/coins/${from.serial}`, { token: payer.token })).body.coin.amount).toBe('57.50');
    // Another user's template is a 404; its key with another body a 422.
    const stranger = await world.user();
    expectError(
      await world.server.request('POST', `/api/v1/templates/transfer/${template.id}/execute`, { token: stranger.token, body: {} }),
      404,
      'exception.transfer_template.not_found',
    );
    expectError(
      await world.server.request('POST', `/api/v1/templates/transfer/${template.id}/execute`, {
        token: payer.token,
        headers,
        body: { amount: '1.00' },
      }),
      422,
    );
  });

  it('PATCH /templates/transfer/{id} — renames and changes the amount; a name already taken is a 409, a stranger gets a 404', async () => {
    const { payer, template } = await saved();
    const patched = await world.server.request('PATCH', `/api/v1/templates/transfer/${template.id}`, {
      token: payer.token,
      body: { name: 'Monthly rent', amount: 15 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.template).toMatchObject({ name: 'Monthly rent', amount: '15.00', payerCoin: template.payerCoin });
    const other = await world.server.request('POST', '/api/v1/templates/transfer', {
      token: payer.token,
      body: { name: 'Other', payerCoin: template.payerCoin, payeeCoin: template.payeeCoin, amount: '1.00' },
    });
    expect(other.status).toBe(201);
    expectError(
      await world.server.request('PATCH', `/api/v1/templates/transfer/${other.body.template.id}`, {
        token: payer.token,
        body: { name: 'monthly RENT' },
      }),
      409,
      'exception.transfer_template.name_taken',
    );
    const stranger = await world.user();
    expectError(
      await world.server.request('PATCH', `/api/v1/templates/transfer/${template.id}`, { token: stranger.token, body: { name: 'Mine' } }),
      404,
      'exception.transfer_template.not_found',
    );
    expectError(
      await world.server.request('PATCH', `/api/v1/templates/transfer/${template.id}`, { token: payer.token, body: { amount: '1.001' } }),
      400,
    );
  });

  it('POST /templates/transfer/operation/{id} — after a payment the client saves it: { name, amount, description, reusable }', async () => {
    const [payer, payee] = [await world.user(), await world.user()];
    const [from, to] = await world.pair(payer, payee, '100.00');
    const paid = await world.server.request('POST', '/api/v1/transfers', {
      token: payer.token,
      body: { paymentTool: { type: 'COIN', srcValue: from.serial, destValue: to.serial }, amount: '8.00', description: '' },
    });
    expect(paid.status).toBe(201);
    const saved = await world.server.request('POST', `/api/v1/templates/transfer/operation/${paid.body.process.id}`, {
      token: payer.token,
      body: { name: 'Lunch', amount: 8, description: 'Lunch with Bob', reusable: true },
    });
    expect(saved.status).toBe(201);
    expect(saved.body.template).toMatchObject({ name: 'Lunch', payerCoin: from.serial, payeeCoin: to.serial, amount: '8.00' });
    // The name taken: a 409, as for any template.
    expectError(
      await world.server.request('POST', `/api/v1/templates/transfer/operation/${paid.body.process.id}`, {
        token: payer.token,
        body: { name: 'LUNCH' },
      }),
      409,
      'exception.transfer_template.name_taken',
    );
    // The payee may see the operation but pays from none of its coins; a stranger may not see it; a top-up is no transfer.
    expectError(
      await world.server.request('POST', `/api/v1/templates/transfer/operation/${paid.body.process.id}`, {
        token: payee.token,
        body: { name: 'Back' },
      }),
      404,
    );
    const stranger = await world.user();
    expectError(
      await world.server.request('POST', `/api/v1/templates/transfer/operation/${paid.body.process.id}`, {
        token: stranger.token,
        body: { name: 'X' },
      }),
      404,
      'exception.transaction.not_found',
    );
    const history = await world.server.request('POST', '/api/v1/transactions/view', { token: payer.token, body: {} });
    const topUpId = history.body.records.find((r: { type: string }) => r.type !== 'client_transaction_transfer')?.id;
    expect(topUpId).toEqual(expect.any(String));
    expectError(
      await world.server.request('POST', `/api/v1/templates/transfer/operation/${topUpId}`, {
        token: payer.token,
        body: { name: 'Top-up' },
      }),
      400,
      undefined,
      'operationId',
    );
  });
});
