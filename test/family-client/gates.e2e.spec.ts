import { DEFAULT_CONTRACTS } from '../helpers/commissions';
import { aCurrency, anIssuer, aCoin, balanceOf, CoinBody, coinOf, expectBalancedLedger, expectError, expectStatus } from '../helpers/money';
import { aGate } from '../helpers/gates';
import { until } from '../helpers/server';
import { moneyWorld } from '../helpers/world';
import { Actor } from '../helpers/actors';

/**
 * The family web client's card top-up through a payment-provider gate (its `payments` and `wallets` modules, and the
 * start-up catalogue of its `store`): the methods a coin can use, the price, the transaction with the client's body
 * (`coin`, `method {gateProviderId, way}`, `type: TOPUP`), the payer's fields (asked with a trailing slash) and their
 * submission, and the providers' `supportedTransactions`; each with the answer fields its screens read.
 */
describe('family client: gates', () => {
  const world = moneyWorld({ env: { GATE_RECONCILE_SECONDS: '0' } });
  const req = (method: string, path: string, token: string, body?: unknown) =>
    world.server.request(method, `/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });

  /** An acquiring provider (named as the card page looks it up) with a product on sale in the world's currency. */
  const anAcquirer = (settings: Record<string, unknown> = {}, fields: unknown[] = [{ name: 'phone', type: 'string', required: true }]) =>
    aGate(world.server, world.admin, {
      type: 'acquiring',
      name: 'SDK.Finance Top up',
      settings: { secret: 'family-client-secret-0001', ...settings },
      product: 'Card',
      currency: world.currency.code,
      fields,
    });
  /** A fee of 2 % + 0.30 on the provider's transactions for individuals, kept by the operator. */
  const aFee = async (providerId: string, collector = 'operator') => {
    const contract = DEFAULT_CONTRACTS.individual;
    const profile = await req('POST', `/contracts/${contract}/gate-commission-profiles`, world.admin, { gateProviderId: providerId });
    expectStatus(profile, 201);
    const rule = await req(
      'POST',
      `/contracts/${contract}/gate-commission-profiles/${profile.body.profile.id}/commission-provider-rule`,
      world.admin,
      {
        type: 'fixed_and_percent',
        valuePercent: '2',
        valueFixed: '0.30',
        beginDate: '2026-01-01T00:00:00Z',
        endDate: '2036-01-01T00:00:00Z',
        collector,
      },
    );
    expectStatus(rule, 201);
  };
  /** `alice`'s gate transaction of `type` for `amount` on `coin`, by the gate's product: created (201), its id. */
  const started = async (
    alice: Actor,
    coin: CoinBody,
    { provider, product }: { provider: { id: string }; product: { name: string } },
    type: 'TOPUP' | 'REDEEM',
    amount: string | number,
  ): Promise<string> => {
    const created = await req('POST', '/gate/transactions', alice.token, {
      amount,
      coin: coin.serial,
      method: { gateProviderId: provider.id, way: product.name },
      type,
    });
    expectStatus(created, 201);
    return created.body.transaction.id;
  };
  /** `alice` submits the payer's field `name` of her gate transaction `id` (the card page's body). */
  const submit = (alice: Actor, id: string, name: string, value: string) =>
    req('POST', `/gate/transactions/${id}/submit`, alice.token, { optionName: 'default', fields: [{ name, value }] });
  /** The price of 50.00 through the gate's product under `aFee` (2 % + 0.30), as the calculate call answers it. */
  const priceOf50 = (provider: { id: string }, product: { name: string }) => ({
    amountToSend: '50.00',
    commissionAmount: '1.30',
    sourceAmount: '51.30',
    currency: { code: world.currency.code },
    gateProviderId: provider.id,
    way: product.name,
  });
  /** `alice`'s `body` with a `wrong` method (one its type and coin find no product for) is a 404, and without one a 400. */
  const expectMethodChecked = async (alice: Actor, body: object, wrong: { gateProviderId: string; way: string }) => {
    expectError(await req('POST', '/gate/transactions', alice.token, { ...body, method: wrong }), 404, 'exception.gate_product.not_found');
    expectError(
      await req('POST', '/gate/transactions', alice.token, { ...body, method: undefined }),
      400,
      'exception.validation',
      'method',
    );
  };
  const finished = (token: string, id: string) =>
    until(
      async () => (await req('GET', `/gate/transactions/${id}`, token)).body.transaction,
      (t) => t.status === 'processed' || t.status === 'failure',
    );

  /**
   * Waits for the submitted transaction `id` to end and checks it: processed with `amounts`, its coin and its provider's
   * gate named, its operation of `type` processed, `balance` left on the coin, and submitting it again (a `field`) a 409
   * that moves nothing.
   */
  const expectProcessedOnce = async (
    { alice, coin, provider, id, field }: { alice: Actor; coin: CoinBody; provider: { name: string }; id: string; field: string },
    type: string,
    balance: string,
    amounts: Record<string, string>,
  ) => {
    const done = await finished(alice.token, id);
    expect(done).toMatchObject({
      status: 'processed',
      ...amounts,
      coin: { serial: coin.serial, issuer: { currency: world.currency.code } },
      paymentMethod: { gateProvider: { gate: { name: provider.name } } },
    });
    expect(await balanceOf(world.server, alice.token, coin.serial)).toBe(balance);
    const [operation] = (await world.raw.db.query(`SELECT type, status FROM operations WHERE id = $1`, [done.processId])).rows;
    expect(operation).toEqual({ type, status: 'processed' });
    expectError(
      await req('POST', `/gate/transactions/${id}/submit`, alice.token, { optionName: 'default', fields: [{ name: field, value: '1' }] }),
      409,
      'exception.gate_transaction.submitted',
    );
    expect(await balanceOf(world.server, alice.token, coin.serial)).toBe(balance);
  };

  it('GET /gate-providers — the start-up call reads supportedTransactions (paymentWay, transactionType) and gate.name', async () => {
    const { provider, product } = await anAcquirer();
    const listed = await req('GET', '/gate-providers', world.admin);
    expectStatus(listed, 200);
    const mine = listed.body.records.find((p: { id: string }) => p.id === provider.id);
    expect(mine).toMatchObject({ id: provider.id, name: provider.name, gate: { name: provider.name } });
    expect(mine.supportedTransactions).toContainEqual({ paymentWay: product.name, transactionType: 'TOPUP' });
    // Its organization, as POST /organizations lists a gate provider: the provider itself, with no contract.
    expect(mine.organization).toEqual({
      id: provider.id,
      type: 'gate_provider',
      name: provider.name,
      identificationStatus: 'not_available',
      status: 'active',
      contract_info: null,
    });
    const one = await req('GET', `/gate-providers/${provider.id}`, world.admin);
    expect(one.body.gateProvider.supportedTransactions).toEqual(mine.supportedTransactions);
  });

  it('POST /gate/methods/view — the top-up form’s body {serial, txType: TOPUP}; reads gateProvider {id, name, gate.name} and way', async () => {
    const { provider, product } = await anAcquirer();
    // Not methods of this coin: a biller (no TOPUP), and an acquirer's product in another currency.
    const biller = await req('POST', '/gate-providers', world.admin, { name: `Biller ${provider.id.slice(0, 6)}`, type: 'billing' });
    await req('POST', '/gate/products', world.admin, {
      gateProviderId: biller.body.gateProvider.id,
      name: 'Bills',
      currency: world.currency.code,
      minAmount: '1',
      maxAmount: '10',
    });
    const other = await aCurrency(world.server, world.admin, { fraction: 100 });
    await req('POST', '/gate/products', world.admin, {
      gateProviderId: provider.id,
      name: 'Card abroad',
      currency: other.code,
      minAmount: '1',
      maxAmount: '10',
    });
    const alice = await world.user();
    const coin = await world.coin(alice);
    const methods = await req('POST', '/gate/methods/view', alice.token, { serial: coin.serial, txType: 'TOPUP' });
    expectStatus(methods, 200);
    const mine = methods.body.records.filter((m: { gateProvider: { id: string } }) => m.gateProvider.id === provider.id);
    expect(mine).toEqual([
      expect.objectContaining({
        gateProvider: { id: provider.id, name: provider.name, gate: { name: provider.name } },
        way: product.name,
        productId: product.id,
      }),
    ]);
    expect(methods.body.records.map((m: { gateProvider: { id: string } }) => m.gateProvider.id)).not.toContain(biller.body.gateProvider.id);
    // Another's coin is a 404; a transaction type the gates do not offer a 400.
    const bob = await world.user();
    expectError(
      await req('POST', '/gate/methods/view', bob.token, { serial: coin.serial, txType: 'TOPUP' }),
      404,
      'exception.coin.not_found',
    );
    expectError(
      await req('POST', '/gate/methods/view', alice.token, { serial: coin.serial, txType: 'PAY' }),
      400,
      'exception.validation',
      'txType',
    );
  });

  it('POST /gate/transactions/calculate — the top-up form’s body {serial, amount, txType, gateProviderId}; reads amountToSend, commissionAmount, currency.code', async () => {
    const { provider, product } = await anAcquirer();
    await aFee(provider.id);
    const alice = await world.user();
    const coin = await world.coin(alice);
    const body = { serial: coin.serial, amount: '50', txType: 'TOPUP', gateProviderId: provider.id };
    const priced = await req('POST', '/gate/transactions/calculate', alice.token, body);
    expectStatus(priced, 200);
    expect(priced.body).toMatchObject(priceOf50(provider, product));
    // The currency whole, as the coin's: its numeric code, name and description besides code and symbol.
    const { code, symbol, digitalCode, name, description } = (await coinOf(world.server, alice.token, coin.serial)).currency as Record<
      string,
      unknown
    >;
    expect(priced.body.currency).toEqual({ code, symbol, digitalCode, name, description });
    expect(name).toEqual(expect.any(String));
    expectError(
      await req('POST', '/gate/transactions/calculate', alice.token, { ...body, amount: '5000' }),
      400,
      'exception.validation',
      'amount',
    );
    // With a second method of the provider in the coin's currency, the way must be named.
    const second = await req('POST', '/gate/products', world.admin, {
      gateProviderId: provider.id,
      name: 'Second card',
      currency: world.currency.code,
      minAmount: '1',
      maxAmount: '100',
    });
    expectStatus(second, 201);
    expectError(await req('POST', '/gate/transactions/calculate', alice.token, body), 400, 'exception.validation', 'way');
    const named = await req('POST', '/gate/transactions/calculate', alice.token, { ...body, way: 'Second card' });
    expect(named.body).toMatchObject({ amountToSend: '50.00', way: 'Second card' });
    expectError(
      await req('POST', '/gate/transactions/calculate', alice.token, { ...body, gateProviderId: '00000000-0000-4000-8000-00000000dead' }),
      404,
      'exception.gate_product.not_found',
    );
  });

  it('POST /gate/transactions — the top-up form’s body {amount, coin, method {gateProviderId, way}, type: TOPUP}; reads transaction.id; nothing moves yet', async () => {
    const { provider, product } = await anAcquirer();
    const alice = await world.user();
    const coin = await world.coin(alice, '10.00');
    const body = { amount: '25', coin: coin.serial, method: { gateProviderId: provider.id, way: product.name }, type: 'TOPUP' };
    const created = await world.server.request('POST', '/api/v1/gate/transactions', {
      token: alice.token,
      body,
      headers: { 'Idempotency-Key': `topup-${coin.serial}` },
    });
    expectStatus(created, 201);
    expect(created.body.transaction).toMatchObject({
      type: 'TOPUP',
      status: 'initiated',
      coinSerial: coin.serial,
      amount: '25.00',
      coin: { serial: coin.serial, issuer: { id: world.issuer.id, currency: world.currency.code } },
      paymentMethod: { gateProvider: { id: provider.id, gate: { name: provider.name } }, way: product.name },
    });
    expect(created.body.transaction.id).toEqual(expect.any(String));
    // A retry with the same key is the same transaction.
    const again = await world.server.request('POST', '/api/v1/gate/transactions', {
      token: alice.token,
      body,
      headers: { 'Idempotency-Key': `topup-${coin.serial}` },
    });
    expect(again.body.transaction.id).toBe(created.body.transaction.id);
    expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('10.00');
    // The method must be one of the provider's TOPUP methods in the coin's currency; a TOPUP names a method.
    await expectMethodChecked(alice, body, { gateProviderId: provider.id, way: 'Nope' });
    expectError(await req('POST', '/gate/transactions', alice.token, { ...body, amount: '0.50' }), 400, 'exception.validation', 'amount');
  });

  it('GET /gate/transactions/{id}/payer-fields/ — with the client’s trailing slash; reads options[0].name and fields (name, optional, constraints)', async () => {
    const { provider, product } = await anAcquirer({}, [
      { name: 'phone', type: 'string', required: true },
      { name: 'plan', type: 'enum', required: false, values: ['basic', 'plus'] },
    ]);
    const alice = await world.user();
    const coin = await world.coin(alice);
    const id = await started(alice, coin, { provider, product }, 'TOPUP', 10);
    const asked = await req('GET', `/gate/transactions/${id}/payer-fields/`, alice.token);
    expectStatus(asked, 200);
    expect(asked.body.options).toHaveLength(1);
    const [{ name, fields }] = asked.body.options;
    expect(name).toBe('default');
    expect(fields.map((f: { name: string; optional: boolean }) => [f.name, f.optional])).toEqual([
      ['phone', false],
      ['plan', true],
    ]);
    const plan = new RegExp(fields[1].constraints[0].regex);
    expect([plan.test('plus'), plan.test('gold')]).toEqual([true, false]);
    const bob = await world.user();
    expectError(await req('GET', `/gate/transactions/${id}/payer-fields/`, bob.token), 404, 'exception.gate_transaction.not_found');
  });

  it('POST /gate/transactions/{id}/submit — the card page’s body {optionName: default, fields: [{name: phone, value}]}; the charge credits the coin once', async () => {
    const { provider, product } = await anAcquirer();
    await aFee(provider.id);
    const alice = await world.user();
    const coin = await world.coin(alice, '10.00');
    const id = await started(alice, coin, { provider, product }, 'TOPUP', '40.00');
    expectError(
      await req('POST', `/gate/transactions/${id}/submit`, alice.token, { optionName: 'default', fields: [] }),
      400,
      'exception.validation',
      'fields.phone',
    );
    const keyed = (value: string) =>
      world.server.request('POST', `/api/v1/gate/transactions/${id}/submit`, {
        token: alice.token,
        body: { optionName: 'default', fields: [{ name: 'phone', value }] },
        headers: { 'Idempotency-Key': `submit-${id}` },
      });
    const submitted = await keyed('380990000001');
    expectStatus(submitted, 200);
    expect(submitted.body.transaction).toMatchObject({ id, status: 'provider_assigned', fields: { phone: '380990000001' } });
    await expectProcessedOnce({ alice, coin, provider, id, field: 'phone' }, 'gate_charge', '50.00', {
      commission: '1.10',
      sourceAmount: '41.10',
      amountToSend: '40.00',
      finalAmount: '40.00',
    });
    // Another's transaction is a 404.
    const bob = await world.user();
    expectError(
      await req('POST', `/gate/transactions/${id}/submit`, bob.token, { optionName: 'default', fields: [] }),
      404,
      'exception.gate_transaction.not_found',
    );
    // A retry with the submit's Idempotency-Key answers as it did; the key with another body is a 422.
    const retried = await keyed('380990000001');
    expect({ status: retried.status, id: retried.body.transaction?.id }).toEqual({ status: 200, id });
    expectError(await keyed('2'), 422);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('a TOPUP the provider refuses moves nothing and ends in failure; a provider-collected fee stays with the provider', async () => {
    const { provider, product } = await anAcquirer({ failAbove: '100.00' });
    await aFee(provider.id, 'provider');
    const alice = await world.user();
    const coin = await world.coin(alice, '10.00');
    const topUp = async (amount: string) => {
      const id = await started(alice, coin, { provider, product }, 'TOPUP', amount);
      expectStatus(await submit(alice, id, 'phone', '1'), 200);
      return finished(alice.token, id);
    };
    expect(await topUp('150.00')).toMatchObject({ status: 'failure' });
    expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('10.00');
    expect(await topUp('20.00')).toMatchObject({ status: 'processed', commission: '0.70', amountToSend: '20.00' });
    expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('30.00');
    // A payment to a product (today's body) is refused a method; a TOPUP on a coin of another currency finds none.
    const other = await aCurrency(world.server, world.admin, { fraction: 100 });
    const foreign = await aCoin(world.server, alice.token, (await anIssuer(world.server, world.admin, other.code)).id);
    expectError(
      await req('POST', '/gate/transactions', alice.token, {
        amount: '20.00',
        coin: foreign.serial,
        method: { gateProviderId: provider.id, way: product.name },
        type: 'TOPUP',
      }),
      404,
      'exception.gate_product.not_found',
    );
    expectError(
      await req('POST', '/gate/transactions', alice.token, {
        productId: product.id,
        coinSerial: coin.serial,
        amount: '5.00',
        type: 'payment',
        method: { gateProviderId: provider.id, way: product.name },
      }),
      400,
      'exception.validation',
      'method',
    );
    await expectBalancedLedger(world.server, world.admin);
  });

  /** A payout provider (the withdrawal form's methods) with a product on sale in the world's currency. */
  const aPayer = (settings: Record<string, unknown> = {}, fields: unknown[] = [{ name: 'card', type: 'string', required: true }]) =>
    aGate(world.server, world.admin, {
      type: 'payout',
      name: 'Card payout',
      settings: { secret: 'family-client-secret-0002', ...settings },
      product: 'To card',
      currency: world.currency.code,
      fields,
    });

  it('POST /gate/methods/view — the withdrawal form’s body {serial, txType: REDEEM}; payout providers’ methods only', async () => {
    const { provider, product } = await aPayer();
    const acquirer = await anAcquirer();
    const alice = await world.user();
    const coin = await world.coin(alice);
    const methods = await req('POST', '/gate/methods/view', alice.token, { serial: coin.serial, txType: 'REDEEM' });
    expectStatus(methods, 200);
    const ids = methods.body.records.map((m: { gateProvider: { id: string } }) => m.gateProvider.id);
    expect(ids).not.toContain(acquirer.provider.id);
    expect(methods.body.records.filter((m: { gateProvider: { id: string } }) => m.gateProvider.id === provider.id)).toEqual([
      expect.objectContaining({ gateProvider: { id: provider.id, name: provider.name, gate: { name: provider.name } }, way: product.name }),
    ]);
    const topUps = await req('POST', '/gate/methods/view', alice.token, { serial: coin.serial, txType: 'TOPUP' });
    expect(topUps.body.records.map((m: { gateProvider: { id: string } }) => m.gateProvider.id)).not.toContain(provider.id);
  });

  it('POST /gate/transactions/calculate — the withdrawal form’s body {gateProviderId, serial, amount, txType: REDEEM}; reads amountToSend, commissionAmount, currency.code', async () => {
    const { provider, product } = await aPayer();
    await aFee(provider.id);
    const alice = await world.user();
    const coin = await world.coin(alice);
    const priced = await req('POST', '/gate/transactions/calculate', alice.token, {
      gateProviderId: provider.id,
      serial: coin.serial,
      amount: 50,
      txType: 'REDEEM',
    });
    expectStatus(priced, 200);
    expect(priced.body).toMatchObject(priceOf50(provider, product));
    // An acquirer has no REDEEM method.
    const acquirer = await anAcquirer();
    expectError(
      await req('POST', '/gate/transactions/calculate', alice.token, {
        gateProviderId: acquirer.provider.id,
        serial: coin.serial,
        amount: 50,
        txType: 'REDEEM',
      }),
      404,
      'exception.gate_product.not_found',
    );
  });

  it('POST /gate/transactions — the withdrawal form’s REDEEM body {amount, coin, method {gateProviderId, way}, type: REDEEM}; amount + fee held at once, paid out once on submit', async () => {
    const { provider, product } = await aPayer();
    await aFee(provider.id);
    const alice = await world.user();
    const coin = await world.coin(alice, '100.00');
    const body = { amount: 40, coin: coin.serial, method: { gateProviderId: provider.id, way: product.name }, type: 'REDEEM' };
    const create = () =>
      world.server.request('POST', '/api/v1/gate/transactions', {
        token: alice.token,
        body,
        headers: { 'Idempotency-Key': `redeem-${coin.serial}` },
      });
    const created = await create();
    expectStatus(created, 201);
    expect(created.body.transaction).toMatchObject({
      type: 'REDEEM',
      status: 'initiated',
      amount: '40.00',
      commission: '1.10',
      coin: { serial: coin.serial, issuer: { currency: world.currency.code } },
      paymentMethod: { gateProvider: { id: provider.id, gate: { name: provider.name } }, way: product.name },
    });
    const id = created.body.transaction.id;
    expect((await create()).body.transaction.id).toBe(id);
    // Held: what the coin can spend is down by amount + fee, once.
    const held = await coinOf(world.server, alice.token, coin.serial);
    expect(held.availableAmount).toBe('58.90');
    // The answer's coin is the caller's coin whole, as GET /coins/{serial} answers it once the hold is written.
    expect(created.body.transaction.coin).toEqual(held);
    expect(created.body.transaction.coin).toMatchObject({
      amount: '100.00',
      heldAmount: '41.10',
      type: 'client',
      active: true,
      issuer: { id: world.issuer.id, sn: expect.any(Number) },
    });
    const fields = await req('GET', `/gate/transactions/${id}/payer-fields/`, alice.token);
    expectStatus(fields, 200);
    expect(fields.body.options[0]).toMatchObject({ name: 'default', fields: [expect.objectContaining({ name: 'card', optional: false })] });
    const submitted = await world.server.request('POST', `/api/v1/gate/transactions/${id}/submit`, {
      token: alice.token,
      body: { optionName: 'default', fields: [{ name: 'card', value: '4111111111111111' }] },
      headers: { 'Idempotency-Key': `redeem-submit-${id}` },
    });
    expectStatus(submitted, 200);
    expect(submitted.body.transaction).toMatchObject({ id, status: 'provider_assigned', payerData: { card: '4111111111111111' } });
    // The coin whole again (its balance may already have moved: the provider is called after the commit).
    expect(submitted.body.transaction.coin).toMatchObject({
      serial: coin.serial,
      name: held.name,
      main: held.main,
      active: true,
      type: 'client',
    });
    expect(submitted.body.transaction.coin).toHaveProperty('availableAmount');
    await expectProcessedOnce({ alice, coin, provider, id, field: 'card' }, 'gate_payment', '58.90', {
      finalAmount: '41.10',
      amountToSend: '40.00',
    });
    // More than the coin holds is refused, and holds nothing.
    expectError(await req('POST', '/gate/transactions', alice.token, { ...body, amount: 900 }), 409, 'exception.coin.insufficient_funds');
    // A REDEEM names a payout provider's method.
    const acquirer = await anAcquirer();
    await expectMethodChecked(alice, body, { gateProviderId: acquirer.provider.id, way: acquirer.product.name });
    expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('58.90');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('POST /gate/transactions/{id}/submit — a REDEEM the provider refuses gives amount + fee back, once', async () => {
    const { provider, product } = await aPayer({ failAbove: '100.00' });
    await aFee(provider.id);
    const alice = await world.user();
    const coin = await world.coin(alice, '300.00');
    const id = await started(alice, coin, { provider, product }, 'REDEEM', '150.00');
    expectStatus(await submit(alice, id, 'card', '4111'), 200);
    expect(await finished(alice.token, id)).toMatchObject({ status: 'failure' });
    expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('300.00');
    expect((await coinOf(world.server, alice.token, coin.serial)).availableAmount).toBe('300.00');
    expectError(await submit(alice, id, 'card', '4111'), 409, 'exception.gate_transaction.submitted');
    expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('300.00');
    await expectBalancedLedger(world.server, world.admin);
  });
});
