import { coinOf, expectBalancedLedger, expectError, expectStatus } from './helpers/money';
import { moneyWorld } from './helpers/world';
import { within } from './helpers/server';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

/** Issue 15: invoices and templates, merchant products and prices, merchant payments and purchases, points of sale. */
describe('commerce (issue 15)', () => {
  const world = moneyWorld({ env: { INVOICE_EXPIRY_SWEEP_SECONDS: '1' } });
  const req = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    world.server.request(method, `/api/v1${path}`, { token, headers, ...(body !== undefined ? { body } : {}) });

  const aShop = async () => {
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    return { merchant, till };
  };

  describe('a merchant’s day', () => {
    it('catalogue → price → invoice → the customer pays → purchases', async () => {
      const { merchant, till } = await aShop();
      const alice = await world.user();
      const wallet = await world.coin(alice, '100.00');

      const product = await req('POST', '/merchant-products', merchant.token, { name: 'Coffee', category: 'Drinks' });
      expectStatus(product, 201);
      expect(product.body.product).toMatchObject({ id: expect.stringMatching(/^[0-9]+$/), name: 'Coffee', category: 'Drinks', prices: [] });
      const productId = product.body.product.id;
      const price = await req('POST', `/merchant-products/${productId}/prices`, merchant.token, {
        currency: world.currency.code,
        price: '2.50',
      });
      expectStatus(price, 201);
      expect(price.body.price).toMatchObject({ productId, currency: world.currency.code, price: '2.50' });
      expectError(
        await req('POST', `/merchant-products/${productId}/prices`, merchant.token, { currency: world.currency.code, price: '3.00' }),
        409,
        'exception.merchant_product_price.exists',
      );
      expect((await req('GET', '/merchant-products/categories', merchant.token)).body.categories).toEqual(['Drinks']);
      const got = await req('GET', `/merchant-products/${productId}`, merchant.token);
      expectStatus(got, 200);
      expect(got.body.product.prices.map((p: { price: string }) => p.price)).toEqual(['2.50']);
      expect(
        (await req('POST', '/merchant-products/view', merchant.token, { filter: { category: 'Drinks' } })).body.records.map(
          (p: { id: string }) => p.id,
        ),
      ).toEqual([productId]);

      const invoice = await req('POST', '/invoices', merchant.token, {
        name: 'Two coffees',
        recipientCoin: till.serial,
        amount: '5.00',
        items: [{ name: 'Coffee', quantity: 2, price: '2.50' }],
        payerContact: 'alice@example.com',
      });
      expectStatus(invoice, 201);
      expect(invoice.body.invoice).toMatchObject({
        status: 'pending',
        serviceStatus: 'initiated',
        amount: '5.00',
        issuerId: world.issuer.id,
        currency: world.currency.code,
      });
      const id = invoice.body.invoice.id;
      const price2 = await req('POST', `/invoices/${id}/calculate`, alice.token, { payerCoin: wallet.serial });
      expectStatus(price2, 200);
      expect(price2.body).toMatchObject({ transactionAmount: '5.00', senderAmountPush: '5.00' });
      const paid = await req('POST', `/invoices/${id}/pay`, alice.token, { payerCoin: wallet.serial }, { 'idempotency-key': `pay-${id}` });
      expectStatus(paid, 201);
      expect(paid.body.invoice).toMatchObject({ status: 'paid', paidByCoin: wallet.serial, operationId: paid.body.process.id });
      expect(paid.body.process).toMatchObject({ type: 'invoice_payment', status: 'processed' });
      // The same key again: the same answer, replayed; with another body: a 422.
      const replayed = await req(
        'POST',
        `/invoices/${id}/pay`,
        alice.token,
        { payerCoin: wallet.serial },
        { 'idempotency-key': `pay-${id}` },
      );
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body.process.id).toBe(paid.body.process.id);
      expectError(
        await req('POST', `/invoices/${id}/pay`, alice.token, { payerCoin: till.serial }, { 'idempotency-key': `pay-${id}` }),
        422,
      );
      expectError(
        await req('POST', `/invoices/${id}/pay`, alice.token, { payerCoin: wallet.serial }),
        409,
        'exception.invoice.not_payable',
      );
      expectError(await req('DELETE', `/invoices/${id}`, merchant.token), 409, 'exception.invoice.not_payable');

      const bought = await req('POST', '/merchant-payments', alice.token, {
        merchantId: merchant.organizationId,
        items: [{ productId, quantity: 3 }],
        payer: { method: 'coin', value: wallet.serial },
        description: 'Three coffees',
      });
      expectStatus(bought, 201);
      expect(bought.body.payment).toMatchObject({
        merchantId: merchant.organizationId,
        method: 'coin',
        amount: '7.50',
        currency: world.currency.code,
      });
      expect(bought.body.purchases).toEqual([
        { id: expect.any(String), productId, name: 'Coffee', quantity: 3, price: '2.50', total: '7.50' },
      ]);
      const purchases = await req('GET', `/merchant-payments/${bought.body.payment.id}/merchant-purchases`, merchant.token);
      expectStatus(purchases, 200);
      expect(purchases.body.records).toEqual(bought.body.purchases);
      expect((await req('GET', `/merchant-payments/${bought.body.payment.id}/merchant-purchases`, alice.token)).status).toBe(200);
      expect((await req('POST', '/merchant-payments/view', merchant.token, {})).body.records.map((p: { id: string }) => p.id)).toEqual([
        bought.body.payment.id,
      ]);

      expect(await coinOf(world.server, alice.token, wallet.serial)).toMatchObject({ amount: '87.50' });
      expect(await coinOf(world.server, merchant.token, till.serial)).toMatchObject({ amount: '12.50' });
      await expectBalancedLedger(world.server, world.admin);
    });
  });

  describe('invoices', () => {
    it('are paid once when two customers pay at the same moment', async () => {
      const { merchant, till } = await aShop();
      const payers = [await world.user(), await world.user()];
      const coins = [await world.coin(payers[0], '50.00'), await world.coin(payers[1], '50.00')];
      const id = (await req('POST', '/invoices', merchant.token, { name: 'Once', recipientCoin: till.serial, amount: '30.00' })).body
        .invoice.id;
      const answers = await Promise.all(payers.map((p, i) => req('POST', `/invoices/${id}/pay`, p.token, { payerCoin: coins[i].serial })));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expect(answers.find((a) => a.status === 409)!.body.code).toBe('exception.invoice.not_payable');
      const balances = await Promise.all(payers.map((p, i) => coinOf(world.server, p.token, coins[i].serial)));
      expect(balances.map((b) => b.amount).sort()).toEqual(['20.00', '50.00']);
      expect((await coinOf(world.server, merchant.token, till.serial)).amount).toBe('30.00');
    });

    it('refuses an expired invoice (409) and the sweep marks it expired', async () => {
      const { merchant, till } = await aShop();
      const alice = await world.user();
      const wallet = await world.coin(alice, '50.00');
      const expiresAt = new Date(Date.now() + 1500).toISOString();
      const id = (await req('POST', '/invoices', merchant.token, { name: 'Soon', recipientCoin: till.serial, amount: '5.00', expiresAt }))
        .body.invoice.id;
      expectError(
        await req('POST', '/invoices', merchant.token, {
          name: 'Past',
          recipientCoin: till.serial,
          amount: '5.00',
          expiresAt: '2020-01-01T00:00:00Z',
        }),
        400,
        'exception.validation',
        'expiresAt',
      );
      await new Promise((r) => setTimeout(r, 1700));
      expectError(await req('POST', `/invoices/${id}/pay`, alice.token, { payerCoin: wallet.serial }), 409, 'exception.invoice.expired');
      expectError(
        await req('POST', `/invoices/${id}/calculate`, alice.token, { payerCoin: wallet.serial }),
        409,
        'exception.invoice.expired',
      );
      const swept = async () => (await req('GET', `/invoices/${id}`, merchant.token)).body.invoice.status;
      // The sweep runs every second; on a loaded machine its turn may come late (a minute at most).
      const stored = async () => (await world.raw.db.query(`SELECT status FROM invoices WHERE id = $1`, [id])).rows[0].status;
      await within(60_000, async () => (await stored()) === 'expired');
      expect(await stored()).toBe('expired');
      expect(await swept()).toBe('expired');
      expect((await coinOf(world.server, alice.token, wallet.serial)).amount).toBe('50.00');
    });

    it('are searched by issuer and amount together (section 2.3), by status and dates; others get a 404', async () => {
      const { merchant, till } = await aShop();
      const other = await aShop();
      const alice = await world.user();
      const a = (await req('POST', '/invoices', merchant.token, { name: 'A', recipientCoin: till.serial, amount: '12.34' })).body.invoice;
      await req('POST', '/invoices', merchant.token, { name: 'B', recipientCoin: till.serial, amount: '99.00' });
      const found = await req('POST', '/invoices/view', merchant.token, {
        filter: { totalPrice: { issuerId: world.issuer.id, amount: '12.34' } },
      });
      expectStatus(found, 200);
      expect(found.body.records.map((i: { id: string }) => i.id)).toEqual([a.id]);
      expectError(
        await req('POST', '/invoices/view', merchant.token, { filter: { totalPrice: { amount: '12.34' } } }),
        400,
        'exception.validation',
        'filter.totalPrice.issuerId',
      );
      expectError(
        await req('POST', '/invoices/view', merchant.token, { filter: { totalPrice: { issuerId: world.issuer.id } } }),
        400,
        'exception.validation',
        'filter.totalPrice.amount',
      );
      expectError(
        await req('POST', '/invoices/view', merchant.token, {
          filter: { createdAtFrom: '2026-02-01T00:00:00Z', createdAtTo: '2026-01-01T00:00:00Z' },
        }),
        400,
        'exception.validation',
      );
      expect((await req('POST', '/invoices/view', merchant.token, { filter: { statuses: ['paid'] } })).body.records).toEqual([]);
      expect((await req('POST', '/invoices/view', other.merchant.token, {})).body.records).toEqual([]);
      // BOLA: another merchant and a customer do not see or withdraw it; its issuer does.
      for (const token of [other.merchant.token, alice.token]) {
        expectError(await req('GET', `/invoices/${a.id}`, token), 404, 'exception.invoice.not_found');
        expectError(await req('DELETE', `/invoices/${a.id}`, token), 404, 'exception.invoice.not_found');
      }
      expectError(
        await req('POST', '/invoices', other.merchant.token, { name: 'Into theirs', recipientCoin: till.serial, amount: '1.00' }),
        404,
        'exception.coin.not_found',
      );
      expectError(
        await req('POST', `/invoices/${UNKNOWN}/pay`, alice.token, { payerCoin: (await world.coin(alice)).serial }),
        404,
        'exception.invoice.not_found',
      );
      expectError(
        await req('POST', `/invoices/${UNKNOWN}/calculate`, alice.token, { payerCoin: '1000000000' }),
        404,
        'exception.invoice.not_found',
      );
      const withdrawn = await req('DELETE', `/invoices/${a.id}`, merchant.token);
      expectStatus(withdrawn, 200);
      expect(withdrawn.body.invoice.status).toBe('declined');
      expectError(
        await req('POST', '/invoices', merchant.token, {
          name: 'Sum',
          recipientCoin: till.serial,
          amount: '5.00',
          items: [{ name: 'x', quantity: 1, price: '4.00' }],
        }),
        400,
        'exception.validation',
        'amount',
      );
    });

    it('templates need invoiceDraft.recipientCoin (404 without, section 7) and issue invoices', async () => {
      const { merchant, till } = await aShop();
      expectError(
        await req('POST', '/invoice-templates', merchant.token, { name: 'No coin', invoiceDraft: { amount: '5.00' } }),
        404,
        'exception.coin.not_found',
      );
      const template = await req('POST', '/invoice-templates', merchant.token, {
        name: 'Monthly',
        invoiceDraft: { name: 'Rent', recipientCoin: till.serial, amount: '40.00' },
      });
      expectStatus(template, 201);
      expectError(
        await req('POST', '/invoice-templates', merchant.token, { name: 'Monthly', invoiceDraft: { recipientCoin: till.serial } }),
        409,
        'exception.invoice_template.name_taken',
      );
      const tid = template.body.template.id;
      expect((await req('POST', '/invoice-templates/view', merchant.token, {})).body.records.map((t: { id: string }) => t.id)).toEqual([
        tid,
      ]);
      const issued = await req('POST', `/invoice-templates/${tid}/invoices`, merchant.token, { payerContact: 'bob@example.com' });
      expectStatus(issued, 201);
      expect(issued.body.invoice).toMatchObject({
        name: 'Rent',
        amount: '40.00',
        templateId: tid,
        payerContact: 'bob@example.com',
        status: 'pending',
        serviceStatus: 'initiated',
      });
      const other = await aShop();
      expectError(
        await req('POST', `/invoice-templates/${tid}/invoices`, other.merchant.token, {}),
        404,
        'exception.invoice_template.not_found',
      );
      expectError(await req('DELETE', `/invoice-templates/${tid}`, other.merchant.token), 404, 'exception.invoice_template.not_found');
      expectStatus(await req('DELETE', `/invoice-templates/${tid}`, merchant.token), 200);
      expectError(await req('DELETE', `/invoice-templates/${tid}`, merchant.token), 404, 'exception.invoice_template.not_found');
    });
  });

  describe('merchant products and prices', () => {
    it('answer 400 to a productId that is not a number on GET, POST and DELETE (section 7), 404 to an unknown or another merchant’s', async () => {
      const { merchant } = await aShop();
      const other = await aShop();
      for (const [method, path, body] of [
        ['GET', '/merchant-products/abc/prices', undefined],
        ['POST', '/merchant-products/abc/prices', { currency: world.currency.code, price: '1.00' }],
        ['DELETE', '/merchant-products/abc/prices/1', undefined],
        ['GET', '/merchant-products/1.5/prices', undefined],
      ] as const) {
        expectError(await req(method, path, merchant.token, body), 400, 'exception.validation', 'productId');
      }
      expectError(await req('DELETE', '/merchant-products/1/prices/x', merchant.token), 400, 'exception.validation', 'priceId');
      for (const [method, path, body] of [
        ['GET', '/merchant-products/999999999/prices', undefined],
        ['POST', '/merchant-products/999999999/prices', { currency: world.currency.code, price: '1.00' }],
        ['DELETE', '/merchant-products/999999999/prices/1', undefined],
      ] as const) {
        expectError(await req(method, path, merchant.token, body), 404, 'exception.merchant_product.not_found');
      }
      const id = (await req('POST', '/merchant-products', merchant.token, { name: 'Tea' })).body.product.id;
      const priceId = (
        await req('POST', `/merchant-products/${id}/prices`, merchant.token, { currency: world.currency.code, price: '1.20' })
      ).body.price.id;
      expectError(
        await req('POST', `/merchant-products/${id}/prices`, merchant.token, { currency: world.currency.code, price: '1.205' }),
        400,
        'exception.validation',
        'price',
      );
      expectError(
        await req('POST', `/merchant-products/${id}/prices`, merchant.token, { currency: 'ZZZZ', price: '1.00' }),
        404,
        'exception.currency.not_found',
      );
      for (const [method, path] of [
        ['GET', `/merchant-products/${id}`],
        ['GET', `/merchant-products/${id}/prices`],
        ['DELETE', `/merchant-products/${id}/prices/${priceId}`],
        ['DELETE', `/merchant-products/${id}`],
      ] as const) {
        expectError(await req(method, path, other.merchant.token), 404, 'exception.merchant_product.not_found');
      }
      expectError(
        await req('PATCH', `/merchant-products/${id}`, other.merchant.token, { name: 'Mine' }),
        404,
        'exception.merchant_product.not_found',
      );
      expect((await req('GET', `/merchant-products/${id}/prices`, merchant.token)).body.records.map((p: { id: string }) => p.id)).toEqual([
        priceId,
      ]);
      expectStatus(await req('PATCH', `/merchant-products/${id}`, merchant.token, { name: 'Green tea' }), 200);
      // A name or active sent as null is refused, not handed to the database's NOT NULL (a 500).
      expectError(await req('PATCH', `/merchant-products/${id}`, merchant.token, { name: null }), 400, 'exception.validation', 'name');
      expectError(await req('PATCH', `/merchant-products/${id}`, merchant.token, { active: null }), 400, 'exception.validation', 'active');
      expectStatus(await req('DELETE', `/merchant-products/${id}/prices/${priceId}`, merchant.token), 200);
      expectError(
        await req('DELETE', `/merchant-products/${id}/prices/${priceId}`, merchant.token),
        404,
        'exception.merchant_product_price.not_found',
      );
      expectStatus(await req('DELETE', `/merchant-products/${id}`, merchant.token), 200);
      expectError(await req('GET', `/merchant-products/${id}`, merchant.token), 404, 'exception.merchant_product.not_found');
      const alice = await world.user();
      expectError(await req('POST', '/merchant-products', alice.token, { name: 'Not a shop' }), 403);
    });
  });

  describe('merchant payments', () => {
    it('refuse an invalid method or a value not valid for it (400), and an invalid or unknown identifier of purchases (404)', async () => {
      const { merchant } = await aShop();
      const alice = await world.user();
      const wallet = await world.coin(alice, '20.00');
      const pay = (payer: unknown, extra: Record<string, unknown> = {}) =>
        req('POST', '/merchant-payments', alice.token, { merchantId: merchant.organizationId, amount: '1.00', payer, ...extra });
      expectError(await pay({ method: 'cash', value: wallet.serial }), 400, 'exception.validation', 'payer.method');
      expectError(await pay({ method: 'coin', value: 'not-a-serial' }), 400, 'exception.validation', 'payer.value');
      expectError(await pay({ method: 'smart_card', value: wallet.serial }), 400, 'exception.validation', 'payer.value');
      expectError(await pay({ method: 'voucher', value: 'short' }), 400, 'exception.validation', 'payer.value');
      expectError(await pay({ method: 'coin' }), 400, 'exception.validation', 'payer.value');
      expectError(
        await pay({ method: 'coin', value: wallet.serial }, { items: [{ productId: '1', quantity: 1 }] }),
        400,
        'exception.validation',
        'amount',
      );
      expectError(await pay({ method: 'coin', value: wallet.serial }, { posId: UNKNOWN }), 400, 'exception.validation', 'merchantId');
      expectError(
        await req('POST', '/merchant-payments', alice.token, {
          merchantId: UNKNOWN,
          amount: '1.00',
          payer: { method: 'coin', value: wallet.serial },
        }),
        404,
        'exception.merchant.not_found',
      );
      expectError(await pay({ method: 'smart_card', value: UNKNOWN }), 404, 'exception.payment_tool.not_found');
      expectError(await pay({ method: 'voucher', value: '0123456789abcdef0123456789abcdef' }), 404, 'exception.voucher.not_found');
      expectError(
        await pay({ method: 'coin', value: wallet.serial }, { items: [{ productId: '999999999', quantity: 1 }], amount: undefined }),
        404,
        'exception.merchant_product.not_found',
      );
      expectError(await pay({ method: 'coin', value: wallet.serial }, { amount: '20.01' }), 409, 'exception.coin.insufficient_funds');
      for (const identifier of ['not-a-payment', UNKNOWN, '42', 'x'.repeat(300)]) {
        expectError(
          await req('GET', `/merchant-payments/${identifier}/merchant-purchases`, alice.token),
          404,
          'exception.merchant_payment.not_found',
        );
      }
      expect((await coinOf(world.server, alice.token, wallet.serial)).amount).toBe('20.00');
    });

    it('take a smart card and a voucher at a point of sale; only the merchant and the payer see a payment', async () => {
      const { merchant, till } = await aShop();
      const other = await aShop();
      const alice = await world.user();
      const wallet = await world.coin(alice, '60.00');
      const pos = await req('POST', '/points-of-sale', merchant.token, { name: 'Kiosk', address: 'Main square 1' });
      expectStatus(pos, 201);
      const posId = pos.body.pointOfSale.id;
      const card = (await req('POST', '/smart-cards', alice.token, { coinSerial: wallet.serial, name: 'Card' })).body.card.id;
      const byCard = await req(
        'POST',
        '/merchant-payments',
        alice.token,
        { posId, amount: '10.00', payer: { method: 'smart_card', value: card } },
        { 'idempotency-key': 'card-pay-1' },
      );
      expectStatus(byCard, 201);
      expect(byCard.body.payment).toMatchObject({ merchantId: merchant.organizationId, posId, method: 'smart_card', amount: '10.00' });
      expectError(
        await req(
          'POST',
          '/merchant-payments',
          alice.token,
          { posId, amount: '11.00', payer: { method: 'smart_card', value: card } },
          { 'idempotency-key': 'card-pay-1' },
        ),
        422,
      );
      const voucher = await req('POST', '/vouchers', alice.token, { coinSerial: wallet.serial, amount: '15.00' });
      expectStatus(voucher, 201);
      expectError(
        await req('POST', '/merchant-payments', alice.token, {
          posId,
          amount: '14.00',
          payer: { method: 'voucher', value: voucher.body.code },
        }),
        400,
        'exception.validation',
        'payer.value',
      );
      const byVoucher = await req('POST', '/merchant-payments', alice.token, {
        posId,
        amount: '15.00',
        payer: { method: 'voucher', value: voucher.body.code },
      });
      expectStatus(byVoucher, 201);
      expect(byVoucher.body.payment.method).toBe('voucher');
      // The payment's operation closed the voucher in its transaction (the voucher hears it: no webhook listens here).
      const voucherView = await req('POST', '/vouchers/view', alice.token, { filter: { ids: [voucher.body.voucher.id] } });
      expect(voucherView.body.records[0]).toMatchObject({ status: 'processed', redeemedAt: expect.any(String) });
      const closed = await world.server.db.query(
        `SELECT redeemed_coin::text AS coin, closing_operation_id::text AS operation FROM vouchers WHERE id = $1`,
        [voucher.body.voucher.id],
      );
      expect(closed.rows[0]).toEqual({ coin: till.serial, operation: byVoucher.body.process.id });
      expectError(
        await req('POST', '/merchant-payments', alice.token, {
          posId,
          amount: '15.00',
          payer: { method: 'voucher', value: voucher.body.code },
        }),
        409,
      );
      expect((await coinOf(world.server, merchant.token, till.serial)).amount).toBe('25.00');
      expectError(
        await req('GET', `/merchant-payments/${byCard.body.payment.id}/merchant-purchases`, other.merchant.token),
        404,
        'exception.merchant_payment.not_found',
      );
      expect((await req('POST', '/merchant-payments/view', other.merchant.token, {})).body.records).toEqual([]);
      await expectBalancedLedger(world.server, world.admin);
    });
  });

  describe('points of sale', () => {
    it('are the merchant’s own; deleting a missing or already deleted one is a 404, never a 200 (section 7)', async () => {
      const { merchant } = await aShop();
      const other = await aShop();
      const created = await req('POST', '/points-of-sale', merchant.token, { name: 'Stand' });
      const id = created.body.pointOfSale.id;
      expect((await req('POST', '/points-of-sale/view', merchant.token, {})).body.records.map((p: { id: string }) => p.id)).toEqual([id]);
      expectStatus(await req('PATCH', `/points-of-sale/${id}`, merchant.token, { address: 'Harbour 3', active: false }), 200);
      expect((await req('GET', `/points-of-sale/${id}`, merchant.token)).body.pointOfSale).toMatchObject({
        address: 'Harbour 3',
        active: false,
      });
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'Mine' }],
        ['DELETE', undefined],
      ] as const) {
        expectError(await req(method, `/points-of-sale/${id}`, other.merchant.token, body), 404, 'exception.point_of_sale.not_found');
      }
      expectError(await req('DELETE', `/points-of-sale/${UNKNOWN}`, merchant.token), 404, 'exception.point_of_sale.not_found');
      expectStatus(await req('DELETE', `/points-of-sale/${id}`, merchant.token), 200);
      expectError(await req('DELETE', `/points-of-sale/${id}`, merchant.token), 404, 'exception.point_of_sale.not_found');
      expectError(await req('GET', `/points-of-sale/${id}`, merchant.token), 404, 'exception.point_of_sale.not_found');
      expectError(await req('DELETE', '/points-of-sale/not-a-uuid', merchant.token), 400, 'exception.validation');
    });
  });
});
