import { createHmac } from 'node:crypto';
import { adminToken, aUser } from './helpers/actors';
import { DEFAULT_CONTRACTS } from './helpers/commissions';
import { aCoin, aCurrency, anIssuer, coinOf, expectBalancedLedger, expectError, expectStatus, fund } from './helpers/money';
import { startServer, TestServer, until } from './helpers/server';
import { moneyWorld } from './helpers/world';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const SECRET = 'simulated-provider-secret-0001';

const sign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');

/** Issue 14: gate providers, products, transactions through the simulated provider, provider and product commissions. */
describe('payment gates (issue 14)', () => {
  const world = moneyWorld({ env: { GATE_RECONCILE_SECONDS: '0' } });
  const req = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    world.server.request(method, `/api/v1${path}`, { token, headers, ...(body !== undefined ? { body } : {}) });

  const aProvider = async (settings: Record<string, unknown> = {}, type = 'billing') => {
    const created = await req('POST', '/gate-providers', world.admin, {
      name: `Provider ${Math.random().toString(36).slice(2, 8)}`,
      type,
      settings: { secret: SECRET, ...settings },
    });
    expectStatus(created, 201);
    return created.body.gateProvider;
  };
  const aProduct = async (gateProviderId: string, extra: Record<string, unknown> = {}) => {
    const created = await req('POST', '/gate/products', world.admin, {
      gateProviderId,
      name: `Mobile top-up ${Math.random().toString(36).slice(2, 8)}`,
      currency: world.currency.code,
      minAmount: '1.00',
      maxAmount: '500.00',
      fields: [
        { name: 'phone', type: 'string', required: true },
        { name: 'plan', type: 'enum', required: false, values: ['basic', 'plus'] },
      ],
      ...extra,
    });
    expectStatus(created, 201);
    return created.body.product;
  };
  const pay = (token: string, body: Record<string, unknown>, key?: string) =>
    req('POST', '/gate/transactions', token, body, key ? { 'idempotency-key': key } : {});
  const finished = (token: string, id: string) =>
    until(
      async () => (await req('GET', `/gate/transactions/${id}`, token)).body.transaction,
      (t) => t.status === 'processed' || t.status === 'failure',
    );
  /** A payment of `amount` for `product` (which asks for a phone) from `coin`. */
  const aPhonePayment = (product: { id: string }, coin: { serial: string }, amount: string) => ({
    productId: product.id,
    coinSerial: coin.serial,
    amount,
    type: 'payment',
    fields: { phone: '1' },
  });
  /** A provider with `settings` and a product of it, and a new customer with a coin holding `funds`. */
  const aCustomer = async (settings: Record<string, unknown> = {}, funds = '100.00') => {
    const provider = await aProvider(settings);
    const product = await aProduct(provider.id);
    const alice = await world.user();
    return { provider, product, alice, coin: await world.coin(alice, funds) };
  };
  /** Starts a gate transaction (201) and waits until it has ended. */
  const payToEnd = async (token: string, body: Record<string, unknown>) => {
    const started = await pay(token, body);
    expectStatus(started, 201);
    return finished(token, started.body.transaction.id);
  };

  describe('providers and products', () => {
    it('keeps settings, never answers the secret, and refuses empty settings (section 7)', async () => {
      const provider = await aProvider({ latencyMs: 0 });
      expect(provider).toMatchObject({ type: 'billing', active: true, hasSecret: true, settings: { latencyMs: 0 } });
      expect(JSON.stringify(provider)).not.toContain(SECRET);
      expectError(
        await req('POST', '/gate-providers', world.admin, { name: provider.name, type: 'billing' }),
        409,
        'exception.gate_provider.name_taken',
      );
      expectError(await req('POST', '/gate-providers', world.admin, { name: 'X', type: 'bank' }), 400, 'exception.validation', 'type');
      const got = await req('GET', `/gate-providers/${provider.id}`, world.admin);
      expectStatus(got, 200);
      expect(got.text).not.toContain(SECRET);
      expect((await req('GET', '/gate-providers', world.admin)).body.records.map((p: { id: string }) => p.id)).toContain(provider.id);
      expectError(await req('GET', `/gate-providers/${UNKNOWN}`, world.admin), 404, 'exception.gate_provider.not_found');

      expectError(await req('PATCH', `/gate-providers/${provider.id}/settings`, world.admin, {}), 400, 'exception.validation', 'settings');
      expectError(
        await req('PATCH', `/gate-providers/${provider.id}/settings`, world.admin, { failureRate: 2 }),
        400,
        'exception.validation',
        'failureRate',
      );
      const changed = await req('PATCH', `/gate-providers/${provider.id}/settings`, world.admin, {
        failAbove: '100.00',
        secret: 'another-secret-0000000002',
      });
      expectStatus(changed, 200);
      expect(changed.body.gateProvider.settings).toEqual({ latencyMs: 0, failAbove: '100.00' });
      expect(changed.text).not.toContain('another-secret');
      // A knob set to null is removed (the provider's default again); the secret cannot be removed.
      const cleared = await req('PATCH', `/gate-providers/${provider.id}/settings`, world.admin, { failAbove: null, failureRate: null });
      expectStatus(cleared, 200);
      expect(cleared.body.gateProvider.settings).toEqual({ latencyMs: 0 });
      expectError(
        await req('PATCH', `/gate-providers/${provider.id}/settings`, world.admin, { secret: null }),
        400,
        'exception.validation',
        'secret',
      );
      const created = await req('POST', '/gate-providers', world.admin, {
        name: `Nulls ${provider.id.slice(0, 8)}`,
        type: 'billing',
        settings: { asyncAbove: null, latencyMs: 5 },
      });
      expectStatus(created, 201);
      expect(created.body.gateProvider.settings).toEqual({ latencyMs: 5 });
      expectError(
        await req('PATCH', `/gate-providers/${UNKNOWN}/settings`, world.admin, { latencyMs: 1 }),
        404,
        'exception.gate_provider.not_found',
      );
      const alice = await world.user();
      expectError(await req('POST', '/gate-providers', alice.token, { name: 'Mine', type: 'billing' }), 403);
    });

    it('requires minAmount and maxAmount (section 2.3) and shows the product name in all three views (section 4.3)', async () => {
      const provider = await aProvider();
      const base = { gateProviderId: provider.id, name: 'Electricity', currency: world.currency.code };
      expectError(await req('POST', '/gate/products', world.admin, { ...base, maxAmount: '10' }), 400, 'exception.validation', 'minAmount');
      expectError(await req('POST', '/gate/products', world.admin, { ...base, minAmount: '1' }), 400, 'exception.validation', 'maxAmount');
      expectError(
        await req('POST', '/gate/products', world.admin, { ...base, minAmount: '10', maxAmount: '5' }),
        400,
        'exception.validation',
        'maxAmount',
      );
      expectError(
        await req('POST', '/gate/products', world.admin, { ...base, minAmount: '1.001', maxAmount: '5' }),
        400,
        'exception.validation',
        'minAmount',
      );
      expectError(
        await req('POST', '/gate/products', world.admin, { ...base, gateProviderId: UNKNOWN, minAmount: '1', maxAmount: '5' }),
        404,
        'exception.gate_provider.not_found',
      );
      const product = await aProduct(provider.id, { name: 'Electricity' });
      expect(product).toMatchObject({
        name: 'Electricity',
        gateProviderName: provider.name,
        minAmount: '1.00',
        maxAmount: '500.00',
        active: true,
      });
      expectError(
        await req('POST', '/gate/products', world.admin, { ...base, minAmount: '1', maxAmount: '5' }),
        409,
        'exception.gate_product.name_taken',
      );
      const hidden = await aProduct(provider.id, { name: 'Gas', active: false });

      const alice = await world.user();
      for (const [path, token] of [
        ['/gate/products/available', alice.token],
        [`/gate/products/gate-provider/${provider.id}/available`, alice.token],
        [`/gate/products/gate-provider/${provider.id}/view`, world.admin],
      ] as const) {
        const list = await req('GET', path, token);
        expectStatus(list, 200);
        const mine = list.body.records.find((p: { id: string }) => p.id === product.id);
        expect(mine).toMatchObject({ id: product.id, name: 'Electricity' });
      }
      expect(
        (await req('GET', `/gate/products/gate-provider/${provider.id}/available`, alice.token)).body.records.map(
          (p: { name: string }) => p.name,
        ),
      ).toEqual(['Electricity']);
      expect(
        (await req('GET', `/gate/products/gate-provider/${provider.id}/view`, world.admin)).body.records.map((p: { id: string }) => p.id),
      ).toContain(hidden.id);
      expectError(
        await req('GET', `/gate/products/gate-provider/${UNKNOWN}/available`, alice.token),
        404,
        'exception.gate_provider.not_found',
      );
      expectError(await req('GET', `/gate/products/gate-provider/${provider.id}/view`, alice.token), 403);
    });
  });

  describe('transactions through the simulated provider', () => {
    it('runs a payment through every status: held, sent after commit, processed; money moves once', async () => {
      const { product, alice, coin } = await aCustomer();
      const body = { ...aPhonePayment(product, coin, '25.00'), fields: { phone: '+37060000001', plan: 'plus' } };
      const started = await pay(alice.token, body, 'gate-1');
      expectStatus(started, 201);
      expect(started.body.transaction).toMatchObject({
        status: 'provider_assigned',
        amount: '25.00',
        commission: '0.00',
        productId: product.id,
        operationId: expect.any(String),
      });
      const replay = await pay(alice.token, body, 'gate-1');
      expect(replay.body.transaction.id).toBe(started.body.transaction.id);
      expectError(await pay(alice.token, aPhonePayment(product, coin, '26.00'), 'gate-1'), 422);
      const done = await finished(alice.token, started.body.transaction.id);
      expect(done).toMatchObject({
        status: 'processed',
        providerReference: `sim-${started.body.transaction.id}`,
        finishedAt: expect.any(String),
      });
      expect(await coinOf(world.server, alice.token, coin.serial)).toMatchObject({ amount: '75.00', heldAmount: '0.00' });
      const operation = await req('GET', `/transactions/${done.operationId}`, alice.token);
      expect(operation.body.process).toMatchObject({ type: 'gate_payment', status: 'processed' });
      const view = await req('POST', '/gate/transactions/view', alice.token, { filter: { statuses: ['processed'] } });
      expect(view.body.records.map((t: { id: string }) => t.id)).toEqual([done.id]);
      const bob = await world.user();
      expectError(await req('GET', `/gate/transactions/${done.id}`, bob.token), 404, 'exception.gate_transaction.not_found');
      expect((await req('POST', '/gate/transactions/view', bob.token, {})).body.records).toEqual([]);
      await expectBalancedLedger(world.server, world.admin);
    });

    it('releases the hold when the provider refuses (failure)', async () => {
      const { product, alice, coin } = await aCustomer({ failAbove: '100.00' }, '300.00');
      const done = await payToEnd(alice.token, aPhonePayment(product, coin, '150.00'));
      expect(done).toMatchObject({ status: 'failure', failureReason: expect.stringContaining('100.00') });
      expect(await coinOf(world.server, alice.token, coin.serial)).toMatchObject({
        amount: '300.00',
        heldAmount: '0.00',
        availableAmount: '300.00',
      });
      expect((await req('GET', `/transactions/${done.operationId}`, alice.token)).body.process.status).toBe('error');
    });

    it('takes an asynchronous outcome by a signed callback, applied once however often it comes', async () => {
      const { provider, product, alice, coin } = await aCustomer({ asyncAbove: '50.00' });
      const started = await pay(alice.token, aPhonePayment(product, coin, '60.00'));
      const id = started.body.transaction.id;
      const waiting = await until(
        async () => (await req('GET', `/gate/transactions/${id}`, alice.token)).body.transaction,
        (t) => t.status === 'pending' && t.providerReference !== null,
      );
      expect(waiting.status).toBe('pending');
      expect(await coinOf(world.server, alice.token, coin.serial)).toMatchObject({ amount: '100.00', heldAmount: '60.00' });

      const body = JSON.stringify({ reference: waiting.providerReference, status: 'processed' });
      const callback = (signature: string, text = body) =>
        world.server.request('POST', `/api/v1/gate/callbacks/${provider.id}`, {
          rawBody: text,
          headers: { 'content-type': 'application/json', 'x-gate-signature': signature },
        });
      expectError(await callback(sign(body, 'not-the-secret-0000000')), 401, 'exception.gate.signature_invalid');
      expectError(await callback('nonsense'), 401, 'exception.gate.signature_invalid');
      const invalid = JSON.stringify({ reference: waiting.providerReference, status: 'maybe' });
      expectError(await callback(sign(invalid), invalid), 400, 'exception.validation', 'status');
      const first = await callback(sign(body));
      expectStatus(first, 200);
      expect(first.body).toMatchObject({ applied: true, transaction: { id, status: 'processed' } });
      const again = await callback(sign(body));
      expectStatus(again, 200);
      expect(again.body).toMatchObject({ applied: false, transaction: { id, status: 'processed' } });
      expect(await coinOf(world.server, alice.token, coin.serial)).toMatchObject({ amount: '40.00', heldAmount: '0.00' });
      const unknown = JSON.stringify({ reference: 'sim-nothing', status: 'failure' });
      expectError(await callback(sign(unknown), unknown), 404, 'exception.gate_transaction.not_found');
      expectError(
        await world.server.request('POST', `/api/v1/gate/callbacks/${UNKNOWN}`, {
          rawBody: body,
          headers: { 'content-type': 'application/json', 'x-gate-signature': sign(body) },
        }),
        404,
        'exception.gate_provider.not_found',
      );
    });

    it('keeps a payment a callback finished while the provider call still runs: its late "pending" changes nothing (issue 29)', async () => {
      const { provider, product, alice, coin } = await aCustomer({ latencyMs: 1500, asyncAbove: '50.00' });
      const started = await pay(alice.token, aPhonePayment(product, coin, '80.00'));
      expectStatus(started, 201);
      const id = started.body.transaction.id;
      // The service has called the provider (1.5 s to answer "pending"); its callback comes first.
      await until(
        async () => (await req('GET', `/gate/transactions/${id}`, alice.token)).body.transaction,
        (t) => t.status === 'pending',
      );
      const callback = (status: string) => {
        const body = JSON.stringify({ reference: id, status });
        return world.server.request('POST', `/api/v1/gate/callbacks/${provider.id}`, {
          rawBody: body,
          headers: { 'content-type': 'application/json', 'x-gate-signature': sign(body) },
        });
      };
      const first = await callback('processed');
      expectStatus(first, 200);
      expect(first.body).toMatchObject({ applied: true, transaction: { id, status: 'processed' } });
      await new Promise((r) => setTimeout(r, 3000));

      const after = (await req('GET', `/gate/transactions/${id}`, alice.token)).body.transaction;
      expect(after).toMatchObject({ status: 'processed', finishedAt: expect.any(String), updatedAt: first.body.transaction.updatedAt });
      for (const status of ['processed', 'failure']) {
        const late = await callback(status);
        expectStatus(late, 200);
        expect(late.body).toMatchObject({ applied: false, transaction: { id, status: 'processed' } });
      }
      expect((await req('GET', `/transactions/${after.operationId}`, alice.token)).body.process.status).toBe('processed');
      expect(await coinOf(world.server, alice.token, coin.serial)).toMatchObject({ amount: '20.00', heldAmount: '0.00' });
      await expectBalancedLedger(world.server, world.admin);
    }, 30_000);

    it('refuses bad input with a 400 (an invalid enumerated value: section 7) and others’ coins with a 404', async () => {
      const provider = await aProvider();
      const product = await aProduct(provider.id);
      const alice = await world.user();
      const bob = await world.user();
      const coin = await world.coin(alice, '100.00');
      const bobs = await world.coin(bob, '100.00');
      const ok = aPhonePayment(product, coin, '10.00');
      expectError(await pay(alice.token, { ...ok, type: 'gift' }), 400, 'exception.validation', 'type');
      expectError(await pay(alice.token, { ...ok, fields: { phone: '1', plan: 'gold' } }), 400, 'exception.validation', 'fields.plan');
      expectError(await pay(alice.token, { ...ok, fields: {} }), 400, 'exception.validation', 'fields.phone');
      expectError(await pay(alice.token, { ...ok, fields: { phone: '1', extra: 'x' } }), 400, 'exception.validation', 'fields.extra');
      expectError(await pay(alice.token, { ...ok, amount: '0.50' }), 400, 'exception.validation', 'amount');
      expectError(await pay(alice.token, { ...ok, amount: '501.00' }), 400, 'exception.validation', 'amount');
      expectError(await pay(alice.token, { ...ok, type: 'card_issue' }), 400, 'exception.validation', 'type');
      expectError(await pay(alice.token, { ...ok, coinSerial: bobs.serial }), 404, 'exception.coin.not_found');
      expectError(await pay(alice.token, { ...ok, productId: UNKNOWN }), 404, 'exception.gate_product.not_found');
      expectError(await pay(alice.token, { ...ok, amount: '100.01' }), 409, 'exception.coin.insufficient_funds');
      expect(await coinOf(world.server, alice.token, coin.serial)).toMatchObject({ amount: '100.00', heldAmount: '0.00' });
    });

    it('issues a virtual card through a card-issuing provider', async () => {
      const provider = await aProvider({}, 'card_issuing');
      const product = await aProduct(provider.id, { name: 'Virtual card', fields: [] });
      const alice = await world.user();
      const coin = await world.coin(alice, '20.00');
      const done = await payToEnd(alice.token, { productId: product.id, coinSerial: coin.serial, amount: '5.00', type: 'card_issue' });
      expect(done).toMatchObject({
        status: 'processed',
        type: 'card_issue',
        providerData: {
          virtualCardId: expect.any(String),
          maskedPan: expect.stringMatching(/^4000 00\*\* \*{4} \d{4}$/),
          smartCardId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        },
      });
      // The card the provider issued is Alice's smart card for that coin, named after the product, and it pays.
      const last4 = (done.providerData.maskedPan as string).slice(-4);
      const card = await req('GET', `/smart-cards/my/${done.providerData.smartCardId}`, alice.token);
      expectStatus(card, 200);
      expect(card.body.card).toMatchObject({
        name: 'Virtual card',
        coinSerial: coin.serial,
        provider: provider.id,
        status: 'active',
        maskedNumber: expect.stringMatching(new RegExp(`${last4}$`)),
      });
      const bob = await world.user();
      const bobs = await world.coin(bob);
      const paid = await req('POST', '/transfers', alice.token, {
        paymentTool: { type: 'SMART_CARD', srcValue: done.providerData.smartCardId, destValue: bobs.serial },
        amount: '1.00',
      });
      expectStatus(paid, 201);
      expect(paid.body.process).toMatchObject({ type: 'card_payment' });
      expect(await coinOf(world.server, bob.token, bobs.serial)).toMatchObject({ amount: '1.00' });
      // Another organization does not see it.
      expectError(await req('GET', `/smart-cards/my/${done.providerData.smartCardId}`, bob.token), 404, 'exception.smart_card.not_found');
      // A product that asks for a card name: the card is named so.
      const namedProduct = await aProduct(provider.id, {
        name: 'Named card',
        fields: [{ name: 'cardName', type: 'string', required: true }],
      });
      const namedDone = await payToEnd(alice.token, {
        productId: namedProduct.id,
        coinSerial: coin.serial,
        amount: '1.00',
        type: 'card_issue',
        fields: { cardName: 'Travel' },
      });
      expect((await req('GET', `/smart-cards/my/${namedDone.providerData.smartCardId}`, alice.token)).body.card).toMatchObject({
        name: 'Travel',
      });
      expectError(
        await pay(alice.token, { productId: product.id, coinSerial: coin.serial, amount: '5.00', type: 'payment' }),
        400,
        'exception.validation',
        'type',
      );
    });
  });

  describe('provider and product commissions', () => {
    it('charges the product rule over the provider rule, to the operator or the provider; endDate and non-negative values enforced', async () => {
      const provider = await aProvider();
      const product = await aProduct(provider.id);
      const other = await aProduct(provider.id);
      const base = `/contracts/${DEFAULT_CONTRACTS.individual}/gate-commission-profiles`;
      const profile = await req('POST', base, world.admin, { gateProviderId: provider.id, name: 'Billers' });
      expectStatus(profile, 201);
      const profileId = profile.body.profile.id;
      expectError(await req('POST', base, world.admin, { gateProviderId: provider.id }), 409, 'exception.gate_commission_profile.exists');
      expectError(
        await req('POST', `/contracts/${UNKNOWN}/gate-commission-profiles`, world.admin, { gateProviderId: provider.id }),
        404,
        'exception.contract.not_found',
      );

      const rule = {
        type: 'percent',
        valuePercent: '2',
        beginDate: '2026-01-01T00:00:00Z',
        endDate: '2030-01-01T00:00:00Z',
        collector: 'operator',
      };
      const { endDate: _omitted, ...withoutEnd } = rule;
      expectError(
        await req('POST', `${base}/${profileId}/commission-provider-rule`, world.admin, withoutEnd),
        400,
        'exception.validation',
        'endDate',
      );
      expectError(
        await req('POST', `${base}/${profileId}/commission-provider-rule`, world.admin, { ...rule, valuePercent: '-1' }),
        400,
        'exception.validation',
        'valuePercent',
      );
      expectError(
        await req('POST', `${base}/${profileId}/commission-provider-rule`, world.admin, { ...rule, collector: 'bank' }),
        400,
        'exception.validation',
        'collector',
      );
      expectStatus(await req('POST', `${base}/${profileId}/commission-provider-rule`, world.admin, rule), 201);
      expectError(
        await req('POST', `${base}/${UNKNOWN}/commission-provider-rule`, world.admin, rule),
        404,
        'exception.gate_commission_profile.not_found',
      );
      const productRule = {
        productId: product.id,
        type: 'fixed',
        valueFixed: '1.00',
        beginDate: '2026-01-01T00:00:00Z',
        collector: 'provider',
      };
      expectError(
        await req('POST', `${base}/${profileId}/commission-product-rule`, world.admin, { ...productRule, valueFixed: '-0.01' }),
        400,
        'exception.validation',
        'valueFixed',
      );
      expectError(
        await req('POST', `${base}/${profileId}/commission-product-rule`, world.admin, { ...productRule, productId: UNKNOWN }),
        404,
        'exception.gate_product.not_found',
      );
      const added = await req('POST', `${base}/${profileId}/commission-product-rule`, world.admin, productRule);
      expectStatus(added, 201);
      expect(added.body.rule).toMatchObject({
        kind: 'product',
        productId: product.id,
        collector: 'provider',
        commission: { type: 'fixed', valueFixed: 1 },
      });
      const view = await req('POST', `${base}/${profileId}/commission-product-rule/view`, world.admin, {
        filter: { productIds: [product.id] },
      });
      expectStatus(view, 200);
      expect(view.body.records.map((r: { id: string }) => r.id)).toEqual([added.body.rule.id]);
      expectError(
        await req('POST', `${base}/${UNKNOWN}/commission-product-rule/view`, world.admin, {}),
        404,
        'exception.gate_commission_profile.not_found',
      );
      const got = await req('GET', `${base}/${profileId}`, world.admin);
      expect(got.body.profile.providerRules).toHaveLength(1);
      expect((await req('GET', base, world.admin)).body.records.map((p: { id: string }) => p.id)).toContain(profileId);

      const alice = await world.user();
      const coin = await world.coin(alice, '200.00');
      // The product rule: 1.00 to the provider, on top of the amount.
      const byProduct = await payToEnd(alice.token, aPhonePayment(product, coin, '50.00'));
      expect(byProduct).toMatchObject({ status: 'processed', commission: '1.00' });
      // The provider rule on another product: 2 % to the operator's commission coin.
      const byProvider = await payToEnd(alice.token, aPhonePayment(other, coin, '50.00'));
      expect(byProvider).toMatchObject({ status: 'processed', commission: '1.00' });
      expect(await coinOf(world.server, alice.token, coin.serial)).toMatchObject({ amount: '98.00', heldAmount: '0.00' });
      const legs = async (operationId: string) =>
        (await req('GET', `/transactions/${operationId}`, world.admin)).body.process.transactions.length;
      expect(await legs(byProduct.operationId)).toBe(2);
      expect(await legs(byProvider.operationId)).toBe(2);
      expectStatus(await req('DELETE', `${base}/${profileId}`, world.admin), 200);
      expectError(await req('GET', `${base}/${profileId}`, world.admin), 404, 'exception.gate_commission_profile.not_found');
      await expectBalancedLedger(world.server, world.admin);
    });

    it('rounds a gate fee up, or to a minimum fee, when its rule says so (issue 29)', async () => {
      const provider = await aProvider();
      const product = await aProduct(provider.id);
      const other = await aProduct(provider.id);
      const base = `/contracts/${DEFAULT_CONTRACTS.individual}/gate-commission-profiles`;
      const profileId = (await req('POST', base, world.admin, { gateProviderId: provider.id })).body.profile.id;
      const providerRule = {
        type: 'percent',
        valuePercent: '1',
        rounding: 'up',
        beginDate: '2026-01-01T00:00:00Z',
        endDate: '2030-01-01T00:00:00Z',
        collector: 'operator',
      };
      const productRule = {
        productId: product.id,
        type: 'percent',
        valuePercent: '1',
        minFee: '0.25',
        beginDate: '2026-01-01T00:00:00Z',
        collector: 'operator',
      };
      const providerPath = `${base}/${profileId}/commission-provider-rule`;
      const productPath = `${base}/${profileId}/commission-product-rule`;
      expectError(
        await req('POST', providerPath, world.admin, { ...providerRule, rounding: 'down' }),
        400,
        'exception.validation',
        'rounding',
      );
      expectError(await req('POST', productPath, world.admin, { ...productRule, minFee: '-0.25' }), 400, 'exception.validation', 'minFee');
      expectError(
        await req('POST', productPath, world.admin, { ...productRule, type: 'zero', valuePercent: undefined }),
        400,
        'exception.validation',
        'minFee',
      );
      const byProvider = await req('POST', providerPath, world.admin, providerRule);
      expectStatus(byProvider, 201);
      expect(byProvider.body.rule.commission).toEqual({ type: 'percent', valuePercent: 1, valueFixed: null, rounding: 'up', minFee: null });
      const byProduct = await req('POST', productPath, world.admin, productRule);
      expectStatus(byProduct, 201);
      expect(byProduct.body.rule.commission).toEqual({
        type: 'percent',
        valuePercent: 1,
        valueFixed: null,
        rounding: 'half_up',
        minFee: '0.25',
      });

      const alice = await world.user();
      const coin = await world.coin(alice, '100.00');
      // The provider rule on `other`: 1 % of 10.01 is 0.1001, a cent more up.
      const up = await payToEnd(alice.token, aPhonePayment(other, coin, '10.01'));
      expect(up).toMatchObject({ status: 'processed', commission: '0.11' });
      // The product rule: 1 % of 10.00 is 0.10, less than its minimum.
      const least = await payToEnd(alice.token, aPhonePayment(product, coin, '10.00'));
      expect(least).toMatchObject({ status: 'processed', commission: '0.25' });
      expect(await coinOf(world.server, alice.token, coin.serial)).toMatchObject({ amount: '79.63', heldAmount: '0.00' });
      expectStatus(await req('DELETE', `${base}/${profileId}`, world.admin), 200);
      await expectBalancedLedger(world.server, world.admin);
    });
  });
});

/**
 * On a service of its own: the administrator, a currency and its issuer, a billing provider `name` with `settings` and a
 * product of it, and a customer with a coin holding `funds`.
 */
async function aBiller(s: TestServer, name: string, settings: Record<string, unknown>, funds = '100.00') {
  const admin = await adminToken(s);
  const currency = await aCurrency(s, admin);
  const issuer = await anIssuer(s, admin, currency.code);
  const provider = (await s.request('POST', '/api/v1/gate-providers', { token: admin, body: { name, type: 'billing', settings } })).body
    .gateProvider;
  const product = (
    await s.request('POST', '/api/v1/gate/products', {
      token: admin,
      body: { gateProviderId: provider.id, name: `${name} bill`, currency: currency.code, minAmount: '1', maxAmount: '100' },
    })
  ).body.product;
  const alice = await aUser(s, admin);
  const coin = await aCoin(s, alice.token, issuer.id);
  await fund(s, admin, coin.serial, funds);
  return { admin, alice, coin, provider, product };
}

describe('payment gates: a provider that hangs, and a node killed before the outcome', () => {
  let server: TestServer;
  afterEach(async () => {
    await server?.stop();
  });

  it('holds no connection and no lock while the provider hangs', async () => {
    server = await startServer({ DB_POOL_SIZE: '3', GATE_RECONCILE_SECONDS: '0' });
    const { alice, coin, product } = await aBiller(server, 'Slow biller', { latencyMs: 10_000 });
    const started = await Promise.all(
      Array.from({ length: 5 }, () =>
        server.request('POST', '/api/v1/gate/transactions', {
          token: alice.token,
          body: { productId: product.id, coinSerial: coin.serial, amount: '2.00', type: 'payment' },
        }),
      ),
    );
    expect(started.map((s) => s.status)).toEqual([201, 201, 201, 201, 201]);
    const statusesOf = () =>
      Promise.all(
        started.map(
          async (s) =>
            (await server.request('GET', `/api/v1/gate/transactions/${s.body.transaction.id}`, { token: alice.token })).body.transaction
              .status,
        ),
      );
    // Five payments wait on the provider; the pool of three still serves everything else at once: the reads are all
    // answered while the five still wait (with their connections held, they would have waited for the provider too).
    for (let i = 0; i < 10; i++)
      expect((await server.request('GET', `/api/v1/coins/${coin.serial}`, { token: alice.token })).status).toBe(200);
    const meanwhile = await statusesOf();
    expect({ meanwhile, waiting: meanwhile.every((s: string) => s !== 'processed' && s !== 'failure') }).toEqual({
      meanwhile,
      waiting: true,
    });
    // A transaction held across the provider's 10 s hang is idle in transaction at both looks, 500 ms apart, with the
    // same start; one the loaded machine merely caught between two statements (a background job's) is gone by the second.
    const idle = async () =>
      (
        await server.db.query(
          `SELECT pid || ':' || xact_start AS held FROM pg_stat_activity WHERE application_name = 'finapi' AND state = 'idle in transaction' AND datname = current_database()`,
        )
      ).rows.map((row: { held: string }) => row.held);
    const first = await idle();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const second = await idle();
    expect(first.filter((held: string) => second.includes(held))).toEqual([]);
    const statuses = await until(statusesOf, (list) => list.every((s: string) => s === 'processed'), 60_000);
    expect(statuses).toEqual(['processed', 'processed', 'processed', 'processed', 'processed']);
  }, 120_000);

  it('finishes a payment after a crash between the provider call and its outcome (the reconciler)', async () => {
    server = await startServer({ GATE_RECONCILE_SECONDS: '1' });
    const { alice, coin, product } = await aBiller(server, 'Slow biller', { latencyMs: 3000 });
    const started = await server.request('POST', '/api/v1/gate/transactions', {
      token: alice.token,
      body: { productId: product.id, coinSerial: coin.serial, amount: '10.00', type: 'payment' },
    });
    expectStatus(started, 201);
    await new Promise((r) => setTimeout(r, 300));
    await server.kill();
    const { databaseUrl } = server;
    server = await startServer({ DATABASE_URL: databaseUrl, GATE_RECONCILE_SECONDS: '1' });
    const token = (await server.request('POST', '/api/v1/authorization', { body: { login: alice.login, password: alice.password } })).body
      .authorizationToken.token;
    const done = await until(
      async () => (await server.request('GET', `/api/v1/gate/transactions/${started.body.transaction.id}`, { token })).body.transaction,
      (t) => t.status === 'processed',
      20_000,
    );
    expect(done.status).toBe('processed');
    expect(await coinOf(server, token, coin.serial)).toMatchObject({ amount: '90.00', heldAmount: '0.00' });
    await expectBalancedLedger(server, await adminToken(server));
  }, 60_000);
});

describe('payment gates: a finished transaction stays finished (issue 29)', () => {
  let server: TestServer;
  afterEach(async () => {
    await server?.stop();
  });

  it('races the provider call’s late answer, callbacks and the reconciler: each transaction ends once, as its operation and the balances say', async () => {
    server = await startServer({ GATE_RECONCILE_SECONDS: '1' });
    const { admin, alice, coin, provider, product } = await aBiller(
      server,
      'Racing biller',
      { secret: SECRET, latencyMs: 1500, asyncAbove: '50.00' },
      '1000.00',
    );
    const get = async (id: string) =>
      (await server.request('GET', `/api/v1/gate/transactions/${id}`, { token: alice.token })).body.transaction;

    const started = await Promise.all(
      Array.from({ length: 8 }, () =>
        server.request('POST', '/api/v1/gate/transactions', {
          token: alice.token,
          body: { productId: product.id, coinSerial: coin.serial, amount: '60.00', type: 'payment' },
        }),
      ),
    );
    expect(started.map((s) => s.status)).toEqual(Array(8).fill(201));
    const ids: string[] = started.map((s) => s.body.transaction.id);
    // Every provider call is running (it will answer "pending" 1.5 s after it began).
    await until(
      () => Promise.all(ids.map(get)),
      (list) => list.every((t) => t.status === 'pending'),
    );
    // From now on the provider, asked by the reconciler, says the payments went through.
    expectStatus(
      await server.request('PATCH', `/api/v1/gate-providers/${provider.id}/settings`, { token: admin, body: { asyncAbove: null } }),
      200,
    );
    // Callbacks spread over the call's answer and the reconciler's runs, half of them refusals.
    const callbacks = await Promise.all(
      ids.map(async (id, i) => {
        await new Promise((r) => setTimeout(r, i * 250));
        const said = i % 2 ? 'failure' : 'processed';
        const body = JSON.stringify({ reference: id, status: said });
        const answer = await server.request('POST', `/api/v1/gate/callbacks/${provider.id}`, {
          rawBody: body,
          headers: { 'content-type': 'application/json', 'x-gate-signature': sign(body) },
        });
        return { said, answer };
      }),
    );
    expect(callbacks.map((c) => c.answer.status)).toEqual(Array(8).fill(200));
    for (const { said, answer } of callbacks) if (answer.body.applied) expect(answer.body.transaction.status).toBe(said);

    const ended = await until(
      () => Promise.all(ids.map(get)),
      (list) => list.every((t) => t.status === 'processed' || t.status === 'failure'),
      15_000,
    );
    // Past the call's late answers and more reconciler runs: nothing changes any more.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await Promise.all(ids.map(get))).toEqual(ended);
    let paid = 0;
    for (const transaction of ended) {
      expect(transaction.status === 'processed' || transaction.status === 'failure').toBe(true);
      expect(transaction.finishedAt).toEqual(expect.any(String));
      const operation = (await server.request('GET', `/api/v1/transactions/${transaction.operationId}`, { token: alice.token })).body
        .process;
      expect(operation.status).toBe(transaction.status === 'processed' ? 'processed' : 'error');
      if (transaction.status === 'processed') paid += 60;
    }
    expect(await coinOf(server, alice.token, coin.serial)).toMatchObject({ amount: `${1000 - paid}.00`, heldAmount: '0.00' });
    await expectBalancedLedger(server, admin);
  }, 60_000);
});
