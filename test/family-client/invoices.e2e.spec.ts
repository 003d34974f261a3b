import { coinOf, expectBalancedLedger, expectError, expectStatus } from '../helpers/money';
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
      status: 'pending',
      serviceStatus: 'initiated',
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
      status: 'pending',
      serviceStatus: 'initiated',
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

  /** The individual's invoices tab (total-balance/invoices/index.vue): page 0, its default filter, newest first. */
  const tabBody = (statuses = ['declined', 'pending', 'expired', 'paid']) => ({
    pageNumber: 0,
    filter: { statuses, direction: 'INCOMING' },
    sort: { createdAt: 'desc' },
  });
  const identifiers = (page: { body: { records: { identifier: string }[] } }) => page.body.records.map((r) => r.identifier);

  /** Issue 45: a shop (its organization named so) whose clerk bills an individual with a wallet. */
  const aShopBillingAlice = async () => {
    const merchant = await world.user({ role: 'merchant', name: 'Garden Shop' });
    const clerk = await world.user({ role: 'merchant', organizationId: merchant.organizationId, name: 'Bob Clerk' });
    const till = await world.coin(merchant);
    const payer = await world.user({ name: 'Alice Payer' });
    const wallet = await world.coin(payer, '100.00');
    const created = await req('POST', '/invoices', clerk.token, createBody(till.serial, payer.login));
    expectStatus(created, 201);
    return { merchant, clerk, till, payer, wallet, invoice: created.body.invoice };
  };

  it('POST /invoices/view — the individual’s invoices tab: its own filter lists a merchant’s invoice awaiting payment as pending, with what the details read', async () => {
    const { merchant, clerk, payer, invoice } = await aShopBillingAlice();
    const page = await req('POST', '/invoices/view', payer.token, tabBody());
    expectStatus(page, 200);
    expect(identifiers(page)).toEqual([invoice.identifier]);
    const record = page.body.records[0];
    // data-details.vue shows the pay form only for `pending` (its status badge, merchant name, expiry and price above it).
    expect(record).toMatchObject({
      identifier: invoice.identifier,
      name: 'Garden chairs',
      status: 'pending',
      serviceStatus: 'initiated',
      merchantName: 'Garden Shop',
      payerContact: payer.login,
      totalPrice: '25.00',
      expiresAt: invoice.expiresAt,
      issuer: { id: world.issuer.id, sn: expect.stringMatching(/^[0-9]+$/), currency: world.currency.code },
      data: { description: 'Two chairs', productCode: 'CH-2' },
      paymentCode: null,
    });
    expect(record.createdAt).toEqual(expect.any(String));
    // invoice-details-form.vue:72: the Pay button shows to an individual who is not in the creator's organization.
    // Its creator's name is the shop's own business: the payer reads merchantName.
    expect(record.createdByUser).toEqual({ id: clerk.id, name: null, profileOrganizationId: merchant.organizationId });
    expect(record.createdByUser.profileOrganizationId).not.toBe(payer.organizationId);
    // The payer is the caller's own organization: all of it, its contract included.
    expect(record.payer).toEqual({
      id: payer.organizationId,
      type: 'individual',
      name: 'Alice Payer',
      identificationStatus: 'none',
      contract_info: { id: expect.any(String), personType: 'base', name: expect.any(String) },
    });
    // The "unpaid invoices" banner (app-notification-controller.vue) asks for pending ones only; the tab's select, one status each.
    expect(identifiers(await req('POST', '/invoices/view', payer.token, tabBody(['pending'])))).toEqual([invoice.identifier]);
    for (const other of ['paid', 'declined', 'expired']) {
      expect(identifiers(await req('POST', '/invoices/view', payer.token, tabBody([other])))).toEqual([]);
    }
    const stranger = await world.user();
    expect(identifiers(await req('POST', '/invoices/view', stranger.token, tabBody()))).toEqual([]);
  });

  it('POST /invoices/view — the tab reads data.description of every invoice (user-dashboard invoices-table.vue): one issued without data answers {}', async () => {
    const { clerk, till, payer, invoice } = await aShopBillingAlice();
    const bare = await req('POST', '/invoices', clerk.token, {
      name: 'Two coffees',
      recipientCoin: till.serial,
      amount: '5.00',
      payerContact: payer.login,
      items: [{ name: 'Coffee', quantity: 2, price: '2.50' }],
    });
    expectStatus(bare, 201);
    expect(bare.body.invoice.data).toEqual({});
    const page = await req('POST', '/invoices/view', payer.token, tabBody());
    expect(identifiers(page)).toEqual([bare.body.invoice.identifier, invoice.identifier]);
    expect(page.body.records.map((r: { data: { description?: string } }) => r.data.description)).toEqual([undefined, 'Two chairs']);
  });

  it('POST /invoices/view — both vocabularies filter: pending and the service’s older initiated are the payable invoice, approved is not it', async () => {
    const { merchant, payer, invoice } = await aShopBillingAlice();
    for (const statuses of [['pending'], ['initiated'], ['initiated', 'pending']]) {
      const mine = await req('POST', '/invoices/view', merchant.token, { filter: { statuses, direction: 'OUTGOING' } });
      expectStatus(mine, 200);
      expect(identifiers(mine)).toEqual([invoice.identifier]);
      expect(mine.body.records[0]).toMatchObject({ status: 'pending', serviceStatus: 'initiated' });
    }
    expect(identifiers(await req('POST', '/invoices/view', payer.token, tabBody(['approved'])))).toEqual([]);
    expectError(await req('POST', '/invoices/view', payer.token, tabBody(['unpaid'])), 400, 'exception.validation', 'filter.statuses');
    // Past its time but not yet swept, it is expired, not awaiting payment: no pay form for it.
    await world.raw.db.query(`UPDATE invoices SET expires_at = now() - interval '1 second' WHERE id = $1`, [invoice.id]);
    expect(identifiers(await req('POST', '/invoices/view', payer.token, tabBody(['pending'])))).toEqual([]);
    const expired = await req('POST', '/invoices/view', payer.token, tabBody(['expired']));
    expect(identifiers(expired)).toEqual([invoice.identifier]);
    expect(expired.body.records[0].status).toBe('expired');
    expect(identifiers(await req('POST', '/invoices/view', payer.token, tabBody()))).toEqual([invoice.identifier]);
  });

  it('POST /invoices/view — the issuer learns who paid only from the payment, and no more of them than a counterparty sees', async () => {
    const { merchant, clerk, payer, wallet, invoice } = await aShopBillingAlice();
    const outgoing = { filter: { identifier: invoice.identifier, direction: 'OUTGOING' } };
    const before = (await req('POST', '/invoices/view', merchant.token, outgoing)).body.records[0];
    // The issuer typed a login; whether anyone holds it is not told (docs/security.md: the directory cannot be walked).
    expect(before).toMatchObject({ payer: null, paymentCode: null, merchantName: 'Garden Shop' });
    expect(before.createdByUser).toEqual({ id: clerk.id, name: 'Bob Clerk', profileOrganizationId: merchant.organizationId });
    const paid = await req('POST', `/invoices/${invoice.identifier}/pay`, payer.token, { payerCoin: wallet.serial });
    expectStatus(paid, 201);
    const after = (await req('POST', '/invoices/view', merchant.token, outgoing)).body.records[0];
    expect(after).toMatchObject({ status: 'paid', serviceStatus: 'paid', paymentCode: paid.body.process.id });
    expect(after.payer).toEqual({
      id: payer.organizationId,
      type: 'individual',
      name: 'Alice Payer',
      identificationStatus: null,
      contract_info: null,
    });
    // The payer reads all of its own organization, and only the shop's name of its creator.
    const theirs = (await req('POST', '/invoices/view', payer.token, tabBody(['paid']))).body.records[0];
    expect(theirs.payer).toMatchObject({ id: payer.organizationId, identificationStatus: 'none', contract_info: { personType: 'base' } });
    expect(theirs.createdByUser).toEqual({ id: clerk.id, name: null, profileOrganizationId: merchant.organizationId });
  });

  it('POST /invoices/{}/calculate — the pay form addresses the invoice by identifier and reads top-level currency', async () => {
    const { payer, wallet, invoice } = await aMerchantAndPayer();
    const price = await req('POST', `/invoices/${invoice.identifier}/calculate`, payer.token, { payerCoin: wallet.serial });
    expectStatus(price, 200);
    expect(price.body).toMatchObject({
      transactionAmount: '25.00',
      senderAmountPush: '25.00',
      commissionAmountPush: '0.00',
      issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
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

  it('POST /transactions/view — a paid invoice in the payer’s history (merchant_invoice) reads invoiceAmount, merchantCoinSerial and invoiceIdentifier', async () => {
    const { payer, wallet, till, invoice } = await aMerchantAndPayer();
    const paid = await req('POST', `/invoices/${invoice.identifier}/pay`, payer.token, { payerCoin: wallet.serial });
    expectStatus(paid, 201);
    const history = await req('POST', '/transactions/view', payer.token, {
      pageNumber: 0,
      pageSize: 20,
      filter: { coinSerials: [wallet.serial] },
      sort: { createdAt: 'desc' },
    });
    expectStatus(history, 200);
    const record = history.body.records.find((r: { id: string }) => r.id === paid.body.process.id);
    expect(record).toMatchObject({
      type: 'merchant_invoice',
      invoiceAmount: '25.00',
      merchantCoinSerial: till.serial,
      invoiceIdentifier: invoice.identifier,
      posCompanyName: null,
      coin: { serial: wallet.serial },
      outgoingAmount: '25.00',
      netAmount: '25.00',
      transactions: [expect.objectContaining({ from: expect.objectContaining({ serial: wallet.serial }) })],
    });
  });

  it('POST /invoices/{}/pay — the individual pays from the tab’s details (pending-invoice-form.vue): { payerCoin }, no Idempotency-Key; the tab then lists it paid', async () => {
    const { merchant, clerk, till, payer, wallet, invoice } = await aShopBillingAlice();
    const record = (await req('POST', '/invoices/view', payer.token, tabBody())).body.records[0];
    expect(record.status).toBe('pending');
    // The form offers the caller's coins (GET /coins) of the invoice's currency, and sends the chosen one's serial.
    const coins = await req('GET', '/coins', payer.token);
    const offered = coins.body.coins.filter((c: { issuer: { currency: string } }) => c.issuer.currency === record.issuer.currency);
    expect(offered.map((c: { serial: string }) => c.serial)).toEqual([wallet.serial]);
    const paid = await req('POST', `/invoices/${record.identifier}/pay`, payer.token, { payerCoin: offered[0].serial });
    expectStatus(paid, 201);
    expect(paid.body.invoice).toMatchObject({
      identifier: invoice.identifier,
      name: 'Garden chairs',
      status: 'paid',
      serviceStatus: 'paid',
      totalPrice: '25.00',
      issuer: { currency: world.currency.code },
      merchantName: 'Garden Shop',
      paymentCode: paid.body.process.id,
      createdByUser: { id: clerk.id, name: null, profileOrganizationId: merchant.organizationId },
      payer: { id: payer.organizationId, type: 'individual', name: 'Alice Payer', identificationStatus: 'none' },
    });
    expect(paid.body.process).toMatchObject({ type: 'invoice_payment', status: 'processed', amount: '25.00' });
    // The form closes and the tab asks again: the invoice is paid, the banner has nothing left to pay.
    const after = await req('POST', '/invoices/view', payer.token, tabBody());
    expect(identifiers(after)).toEqual([invoice.identifier]);
    expect(after.body.records[0]).toMatchObject({ status: 'paid', paymentCode: paid.body.process.id });
    expect(identifiers(await req('POST', '/invoices/view', payer.token, tabBody(['pending'])))).toEqual([]);
    expect((await coinOf(world.server, payer.token, wallet.serial)).amount).toBe('75.00');
    expect((await coinOf(world.server, merchant.token, till.serial)).amount).toBe('25.00');
    expectError(
      await req('POST', `/invoices/${record.identifier}/pay`, payer.token, { payerCoin: wallet.serial }),
      409,
      'exception.invoice.not_payable',
    );
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

  /** A merchant with a till and a template "Chairs" of it (30.00 from bob@example.com). */
  const merchantWithChairs = async () => {
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    expectStatus(
      await req('POST', '/invoice-templates', merchant.token, {
        name: 'Chairs',
        invoiceDraft: createBody(till.serial, 'bob@example.com', 30),
      }),
      201,
    );
    return { merchant, till };
  };

  it('POST /invoice-templates/view — the templates table reads name, amount, recipientCoin and payerContact', async () => {
    const { merchant, till } = await merchantWithChairs();
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
  it('POST /invoice-templates/view — the edit modal and the create form fill themselves from a record: invoiceName, templateName, description and data', async () => {
    // The create form's "save as template" sends the invoice's body as the draft (create-invoice-form.vue:445).
    const { merchant, till } = await merchantWithChairs();
    // One saved without a name or data of its own: its invoices are named after it, and it has nothing to describe.
    expectStatus(
      await req('POST', '/invoice-templates', merchant.token, { name: 'Bare', invoiceDraft: { recipientCoin: till.serial } }),
      201,
    );
    const page = await req('POST', '/invoice-templates/view', merchant.token, {});
    expectStatus(page, 200);
    const [bare, chairs] = page.body.records;
    // The edit modal (invoice-template-form.vue:193-207) reads invoiceName, name and data's four fields; the create
    // form picking a template (create-invoice-form.vue:317-331) reads description and data; resending one
    // (create-invoice-form.vue:219-232) reads templateName.
    expect(chairs).toMatchObject({
      name: 'Chairs',
      templateName: 'Chairs',
      invoiceName: 'Garden chairs',
      description: 'Two chairs',
      data: { productCode: 'CH-2', productPrice: 15, description: 'Two chairs', count: 2 },
      type: 'INVOICE',
      reusable: true,
      regular: false,
    });
    expect(bare).toMatchObject({ name: 'Bare', templateName: 'Bare', invoiceName: 'Bare', description: null, data: {} });
    // The invoice a template issues carries the same name.
    const issued = await req('POST', `/invoice-templates/${bare.id}/invoices`, merchant.token, {
      amount: '5.00',
      payerContact: 'bob@example.com',
    });
    expectStatus(issued, 201);
    expect(issued.body.invoice.name).toBe(bare.invoiceName);
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
      issuer: { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code },
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
    const stranger = await world.user({ role: 'merchant' });
    const theirs = await world.coin(stranger);
    const otherCoin = await world.coin(await world.user({ role: 'merchant' }));
    // Refused: the name of another template, the template of another merchant, a coin of someone else.
    for (const [token, name, coin, status, code] of [
      [merchant.token, 'Tables', till.serial, 409, 'exception.invoice_template.name_taken'],
      [stranger.token, 'Mine', theirs.serial, 404, 'exception.invoice_template.not_found'],
      [merchant.token, 'X', otherCoin.serial, 404, 'exception.coin.not_found'],
    ] as const) {
      const patched = await req('PATCH', `/invoice-templates/${first.id}`, token, {
        name,
        invoiceDraft: createBody(coin, 'bob@example.com'),
      });
      expectError(patched, status, code);
    }
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
