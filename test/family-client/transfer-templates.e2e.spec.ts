import { expectError } from '../helpers/money';
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

  it('POST /templates/transfer/view — the payment form sends { filter: { paymentToolType } }; reads records[].paymentToolDetails', async () => {
    const { payer, template } = await saved();
    const coins = await world.server.request('POST', '/api/v1/templates/transfer/view', {
      token: payer.token,
      body: { filter: { paymentToolType: 'COIN' } },
    });
    expect(coins.status).toBe(200);
    expect(coins.body.records.map((r: { id: string }) => r.id)).toEqual([template.id]);
    expect(coins.body.records[0].paymentToolDetails.currency).toBe(world.currency.code);
    const cards = await world.server.request('POST', '/api/v1/templates/transfer/view', {
      token: payer.token,
      body: { filter: { paymentToolType: 'SMART_CARD' } },
    });
    expect(cards.body.records).toEqual([]);
  });

  it('POST /templates/transfer/{id}/calculate — { amount }; reads recipientAmountPush and issuer.currency', async () => {
    const { payer, template } = await saved();
    const price = await world.server.request('POST', `/api/v1/templates/transfer/${template.id}/calculate`, {
      token: payer.token,
      body: { amount: '20.00' },
    });
    expect(price.status).toBe(200);
    expect(price.body).toMatchObject({ recipientAmountPush: '20.00', issuer: { currency: world.currency.code } });
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
