import { expectBalancedLedger, expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * Issue 31: the family web client's invoice screens, replayed. Each body is what the client's call site sends (our own
 * values); each test reads back the fields its screen shows.
 */
describe('family client: invoices and invoice templates', () => {
  const world = moneyWorld();
  const req = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    world.server.request(method, `/api/v1${path}`, { token, headers, ...(body !== undefined ? { body } : {}) });
  const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

  /** The create form's body: amount and the product's numbers as JSON numbers, the product under `data`. */
  const createBody = (recipientCoin: string, payerContact: string, amount = 25) => ({
    name: 'Garden chairs',
    payerContact,
    recipientCoin,
    amount,
    expiresAt: inADay(),
    data: { productCode: 'CH-2', productPrice: amount / 2, description: 'Two chairs', count: 2 },
  });

  const aMerchantAndPayer = async () => {
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    const payer = await world.user();
    const wallet = await world.coin(payer, '100.00');
    const created = await req('POST', '/invoices', merchant.token, createBody(till.serial, payer.login));
    expectStatus(created, 201);
    return { merchant, till, payer, wallet, invoice: created.body.invoice };
  };

  it('POST /invoices — the create form’s body; the created block reads totalPrice and issuer.currency', async () => {
    const { till, invoice, payer } = await aMerchantAndPayer();
    expect(invoice).toMatchObject({
      identifier: invoice.id,
      name: 'Garden chairs',
      payerContact: payer.login,
      totalPrice: '25.00',
      issuer: { id: world.issuer.id, sn: expect.stringMatching(/^[0-9]+$/), currency: world.currency.code },
      recipientCoin: till.serial,
      data: { productCode: 'CH-2', productPrice: '12.5', description: 'Two chairs', count: 2 },
      status: 'initiated',
    });
    expect(invoice.issuer).toHaveProperty('symbol');
  });

  it('POST /invoices/view — the merchant’s invoice list: six statuses with approved, OUTGOING, newest first', async () => {
    const { merchant, till, payer } = await aMerchantAndPayer();
    const second = (await req('POST', '/invoices', merchant.token, createBody(till.serial, payer.login, 40))).body.invoice;
    const page = await req('POST', '/invoices/view', merchant.token, {
      pageNumber: 0,
      pageSize: 20,
      filter: { statuses: ['initiated', 'pending', 'approved', 'paid', 'declined', 'expired'], direction: 'OUTGOING' },
      sort: { createdAt: 'desc' },
    });
    expectStatus(page, 200);
    expect(page.body.records).toHaveLength(2);
    expect(page.body.records[0]).toMatchObject({
      identifier: second.identifier,
      name: 'Garden chairs',
      status: 'initiated',
      payerContact: payer.login,
      totalPrice: '40.00',
      issuer: { currency: world.currency.code },
      createdByUserId: merchant.id,
    });
    expect(page.body.records[0]).toHaveProperty('createdAt');
    expect(page.body.records[0]).toHaveProperty('expiresAt');
    const cheapestFirst = await req('POST', '/invoices/view', merchant.token, {
      filter: { direction: 'OUTGOING' },
      sort: { totalPrice: 'asc' },
    });
    expect(cheapestFirst.body.records.map((r: { totalPrice: string }) => r.totalPrice)).toEqual(['25.00', '40.00']);
  });

  it('POST /invoices/view — the list’s filters as the client sends them: identifier, totalPrice, createdByUserId', async () => {
    const { merchant, till, payer, invoice } = await aMerchantAndPayer();
    await req('POST', '/invoices', merchant.token, createBody(till.serial, payer.login, 40));
    const ids = async (filter: Record<string, unknown>) => {
      const page = await req('POST', '/invoices/view', merchant.token, {
        filter: { direction: 'OUTGOING', ...filter },
        sort: { createdAt: 'desc' },
      });
      expectStatus(page, 200);
      return page.body.records.map((r: { identifier: string }) => r.identifier);
    };
    expect(await ids({ identifier: invoice.identifier })).toEqual([invoice.identifier]);
    expect(await ids({ totalPrice: '25' })).toEqual([invoice.identifier]);
    expect(await ids({ totalPrice: { issuerId: world.issuer.id, amount: '25.00' } })).toEqual([invoice.identifier]);
    expect(await ids({ createdByUserId: merchant.id })).toHaveLength(2);
    expect(await ids({ createdByUserId: payer.id })).toEqual([]);
    expectError(
      await req('POST', '/invoices/view', merchant.token, { filter: { totalPrice: 'cheap' } }),
      400,
      'exception.validation',
      'filter.totalPrice.amount',
    );
    expectError(
      await req('POST', '/invoices/view', merchant.token, { filter: { direction: 'SIDEWAYS' } }),
      400,
      'exception.validation',
      'filter.direction',
    );
  });

  it('POST /invoices/view — the dashboard’s INCOMING list: the invoices the caller pays', async () => {
    const { payer, invoice } = await aMerchantAndPayer();
    const stranger = await world.user();
    const body = { filter: { statuses: ['declined', 'pending', 'expired', 'paid'], direction: 'INCOMING' }, sort: { createdAt: 'desc' } };
    const none = await req('POST', '/invoices/view', payer.token, body);
    expectStatus(none, 200);
    expect(none.body.records).toEqual([]);
    const pending = await req('POST', '/invoices/view', payer.token, {
      ...body,
      filter: { ...body.filter, statuses: [...body.filter.statuses, 'initiated'] },
    });
    expect(pending.body.records.map((r: { identifier: string }) => r.identifier)).toEqual([invoice.identifier]);
    expect(pending.body.records[0]).toMatchObject({ totalPrice: '25.00', issuer: { currency: world.currency.code }, status: 'initiated' });
    expect((await req('POST', '/invoices/view', stranger.token, { filter: { direction: 'INCOMING' } })).body.records).toEqual([]);
  });

  it('POST /invoices/{}/calculate — the pay form addresses the invoice by identifier and reads top-level currency', async () => {
    const { payer, wallet, invoice } = await aMerchantAndPayer();
    const price = await req('POST', `/invoices/${invoice.identifier}/calculate`, payer.token, { payerCoin: wallet.serial });
    expectStatus(price, 200);
    expect(price.body).toMatchObject({
      transactionAmount: '25.00',
      senderAmountPush: '25.00',
      commissionAmountPush: '0.00',
    });
    expect(price.body.currency).toBe(world.currency.code);
  });

  it('POST /invoices/{}/pay — the pay form; the paid block reads invoice.identifier, totalPrice and issuer.currency', async () => {
    const { payer, wallet, invoice } = await aMerchantAndPayer();
    const paid = await req(
      'POST',
      `/invoices/${invoice.identifier}/pay`,
      payer.token,
      { payerCoin: wallet.serial },
      { 'idempotency-key': `fc-${invoice.id}` },
    );
    expectStatus(paid, 201);
    expect(paid.body.invoice).toMatchObject({
      identifier: invoice.identifier,
      status: 'paid',
      totalPrice: '25.00',
      issuer: { currency: world.currency.code },
    });
    const incoming = await req('POST', '/invoices/view', payer.token, { filter: { statuses: ['paid'], direction: 'INCOMING' } });
    expect(incoming.body.records.map((r: { identifier: string }) => r.identifier)).toEqual([invoice.identifier]);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('DELETE /invoices/{} — the payer rejects a pending invoice from the dashboard', async () => {
    const { payer, merchant, invoice } = await aMerchantAndPayer();
    const stranger = await world.user();
    expectStatus(await req('DELETE', `/invoices/${invoice.identifier}`, stranger.token), 404);
    const rejected = await req('DELETE', `/invoices/${invoice.identifier}`, payer.token);
    expectStatus(rejected, 200);
    expect(rejected.body.invoice).toMatchObject({ identifier: invoice.identifier, status: 'declined' });
    const seen = await req('POST', '/invoices/view', merchant.token, { filter: { identifier: invoice.identifier, direction: 'OUTGOING' } });
    expect(seen.body.records[0].status).toBe('declined');
  });

  it('POST /invoice-templates — the create form’s “save as template”: the invoice’s body as invoiceDraft, expiresAt included', async () => {
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    const saved = await req('POST', '/invoice-templates', merchant.token, {
      name: 'Chairs again',
      invoiceDraft: createBody(till.serial, 'bob@example.com'),
    });
    expectStatus(saved, 201);
    expect(saved.body.template).toMatchObject({ name: 'Chairs again', invoiceDraft: { recipientCoin: till.serial } });
    expect(saved.body.template.invoiceDraft.expiresAt).toEqual(expect.any(String));
  });

  it('POST /invoice-templates/view — the templates table reads name, amount, recipientCoin and payerContact', async () => {
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    expectStatus(
      await req('POST', '/invoice-templates', merchant.token, {
        name: 'Chairs',
        invoiceDraft: createBody(till.serial, 'bob@example.com', 30),
      }),
      201,
    );
    const page = await req('POST', '/invoice-templates/view', merchant.token, {});
    expectStatus(page, 200);
    expect(page.body.records).toHaveLength(1);
    expect(page.body.records[0]).toMatchObject({
      name: 'Chairs',
      amount: '30.00',
      recipientCoin: till.serial,
      payerContact: 'bob@example.com',
    });
  });
  it('POST /invoices/calculate — the create form prices the invoice before issuing: { payerContact, recipientCoin, amount }', async () => {
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    const payer = await world.user();
    await world.coin(payer, '10.00');
    const priced = await req('POST', '/invoices/calculate', merchant.token, {
      payerContact: payer.login,
      recipientCoin: till.serial,
      amount: 25,
    });
    expectStatus(priced, 200);
    expect(priced.body).toMatchObject({
      commissionAmountPush: '0.00',
      senderAmountPush: '25.00',
      transactionAmount: '25.00',
      issuer: { currency: world.currency.code },
      currency: world.currency.code,
    });
    // The payer's coin is not answered: a merchant needs the price, not its customer's serial (issue 43).
    expect(priced.body.paymentToolDetails).toMatchObject({ type: 'COIN', srcValue: null, destValue: till.serial });
    // A login nobody has is priced by the recipient's terms, telling nothing about it.
    const unknown = await req('POST', '/invoices/calculate', merchant.token, {
      payerContact: 'nobody@example.com',
      recipientCoin: till.serial,
      amount: '25',
    });
    expectStatus(unknown, 200);
    expect(unknown.body.senderAmountPush).toBe('25.00');
    expect(unknown.body.paymentToolDetails).toEqual(priced.body.paymentToolDetails);
    const stranger = await world.user({ role: 'merchant' });
    expectError(
      await req('POST', '/invoices/calculate', stranger.token, { recipientCoin: till.serial, amount: 25 }),
      404,
      'exception.coin.not_found',
    );
    expectError(
      await req('POST', '/invoices/calculate', merchant.token, { recipientCoin: till.serial, amount: 0.001 }),
      400,
      'exception.validation',
    );
    expectError(
      await req('POST', '/invoices/calculate', merchant.token, { recipientCoin: till.serial, amount: null }),
      400,
      'exception.validation',
    );
  });

  it('PATCH /invoice-templates/{} — the template form saves { name, invoiceDraft } again; a name taken is a 409, a stranger a 404', async () => {
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    const first = (
      await req('POST', '/invoice-templates', merchant.token, { name: 'Chairs', invoiceDraft: createBody(till.serial, 'bob@example.com') })
    ).body.template;
    expectStatus(
      await req('POST', '/invoice-templates', merchant.token, { name: 'Tables', invoiceDraft: createBody(till.serial, 'bob@example.com') }),
      201,
    );
    const updated = await req('PATCH', `/invoice-templates/${first.id}`, merchant.token, {
      name: 'Chairs (spring)',
      invoiceDraft: { ...createBody(till.serial, 'carol@example.com', 40), name: 'Chairs (spring)' },
    });
    expectStatus(updated, 200);
    expect(updated.body.template).toMatchObject({
      id: first.id,
      name: 'Chairs (spring)',
      amount: '40.00',
      payerContact: 'carol@example.com',
      recipientCoin: till.serial,
    });
    const page = await req('POST', '/invoice-templates/view', merchant.token, {});
    expect(page.body.records.map((t: { name: string }) => t.name)).toEqual(['Chairs (spring)', 'Tables']);
    expectError(
      await req('PATCH', `/invoice-templates/${first.id}`, merchant.token, {
        name: 'Tables',
        invoiceDraft: createBody(till.serial, 'bob@example.com'),
      }),
      409,
      'exception.invoice_template.name_taken',
    );
    const stranger = await world.user({ role: 'merchant' });
    const theirs = await world.coin(stranger);
    expectError(
      await req('PATCH', `/invoice-templates/${first.id}`, stranger.token, {
        name: 'Mine',
        invoiceDraft: createBody(theirs.serial, 'bob@example.com'),
      }),
      404,
      'exception.invoice_template.not_found',
    );
    const other = await world.user({ role: 'merchant' });
    const otherCoin = await world.coin(other);
    expectError(
      await req('PATCH', `/invoice-templates/${first.id}`, merchant.token, {
        name: 'X',
        invoiceDraft: createBody(otherCoin.serial, 'bob@example.com'),
      }),
      404,
      'exception.coin.not_found',
    );
    expect((await req('POST', '/invoice-templates/view', merchant.token, {})).body.records[0]).toMatchObject({
      name: 'Chairs (spring)',
      amount: '40.00',
    });
  });

  it('DELETE /invoice-templates/{} — the templates table deletes one; it is gone from the list, again a 404', async () => {
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    const saved = (
      await req('POST', '/invoice-templates', merchant.token, { name: 'Once', invoiceDraft: createBody(till.serial, 'bob@example.com') })
    ).body.template;
    const stranger = await world.user({ role: 'merchant' });
    expectError(await req('DELETE', `/invoice-templates/${saved.id}`, stranger.token), 404, 'exception.invoice_template.not_found');
    expectStatus(await req('DELETE', `/invoice-templates/${saved.id}`, merchant.token), 200);
    expect((await req('POST', '/invoice-templates/view', merchant.token, {})).body.records).toEqual([]);
    expectError(await req('DELETE', `/invoice-templates/${saved.id}`, merchant.token), 404, 'exception.invoice_template.not_found');
  });
});
