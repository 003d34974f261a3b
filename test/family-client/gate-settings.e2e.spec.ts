import { Actor } from '../helpers/actors';
import { aContract, assignContract, DEFAULT_CONTRACTS } from '../helpers/commissions';
import { aCurrency, expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const DEFAULT_INDIVIDUAL = DEFAULT_CONTRACTS.individual;

/**
 * The family web client's staff screens for gates: gate settings (`gate-settings`: the providers, their settings listed
 * and changed one by one as `fields [{name, value}]`) and the gate tab of a contract (`contracts-old`: a gate commission
 * profile per provider and currency, its commission settings per transaction type). Each test sends the body the
 * screen sends and checks the fields it reads.
 */
describe('family client: gate settings', () => {
  const world = moneyWorld();
  const req = (method: string, path: string, token: string, body?: unknown) =>
    world.server.request(method, `/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });
  let cfo: Actor;
  beforeAll(async () => {
    cfo = await world.user({ role: 'cfo' });
  });

  const SECRET = 'gate-settings-secret-0001';
  const aProvider = async (type = 'acquiring', settings: Record<string, unknown> = {}) => {
    const tag = Math.random().toString(36).slice(2, 8);
    const created = await req('POST', '/gate-providers', world.admin, {
      name: `Acquirer ${tag}`,
      type,
      settings: { secret: SECRET, ...settings },
    });
    expectStatus(created, 201);
    return created.body.gateProvider as { id: string; name: string };
  };
  const actionsOf = async (user: Actor, action: string) => {
    const page = await req('POST', '/users/view/actions', world.admin, {
      filter: { userIds: [user.id], actions: [action] },
      pageSize: 100,
    });
    expectStatus(page, 200);
    return page.body.records as { userId: string; action: string; details: Record<string, unknown> }[];
  };

  it('GET /gate-providers/{id}/settings — the account-settings screen lists fields {name, value}; a secret only as set', async () => {
    const provider = await aProvider('acquiring', { latencyMs: 20, failAbove: '900.00' });
    const answer = await req('GET', `/gate-providers/${provider.id}/settings`, cfo.token);
    expectStatus(answer, 200);
    expect(answer.text).not.toContain(SECRET);
    const byName = Object.fromEntries(answer.body.fields.map((f: { name: string }) => [f.name, f]));
    expect(Object.keys(byName).sort()).toEqual(['asyncAbove', 'failAbove', 'failureRate', 'latencyMs', 'secret']);
    expect(byName.latencyMs).toMatchObject({ value: 20, set: true, secret: false });
    expect(byName.failAbove).toMatchObject({ value: '900.00', set: true, secret: false });
    expect(byName.asyncAbove).toMatchObject({ value: null, set: false, secret: false });
    expect(byName.secret).toMatchObject({ value: null, set: true, secret: true });
    for (const field of answer.body.fields) expect(typeof field.label).toBe('string');

    expectError(await req('GET', `/gate-providers/${UNKNOWN}/settings`, cfo.token), 404, 'exception.gate_provider.not_found');
    const alice = await world.user();
    expectError(await req('GET', `/gate-providers/${provider.id}/settings`, alice.token), 403, 'exception.access.permission_missing');
  });

  it('PATCH /gate-providers/{id}/settings — the screen updates one field {name, value} as typed; validated, write-only secret, in the action log', async () => {
    const provider = await aProvider('acquiring', { latencyMs: 20 });
    const path = `/gate-providers/${provider.id}/settings`;
    // The screen sends one row at a time, its value as typed (text), or as it was answered (a number).
    const changed = await req('PATCH', path, cfo.token, { fields: [{ name: 'failAbove', value: '750.50' }] });
    expectStatus(changed, 200);
    expect(changed.body.gateProvider.settings).toEqual({ latencyMs: 20, failAbove: '750.50' });
    expect(changed.body.fields).toContainEqual(expect.objectContaining({ name: 'failAbove', value: '750.50', set: true }));
    expectStatus(await req('PATCH', path, cfo.token, { fields: [{ name: 'latencyMs', value: 35 }] }), 200);
    expectStatus(await req('PATCH', path, cfo.token, { fields: [{ name: 'failureRate', value: '0.25' }] }), 200);
    const secret = await req('PATCH', path, cfo.token, { fields: [{ name: 'secret', value: 'a-brand-new-secret-000002' }] });
    expectStatus(secret, 200);
    expect(secret.text).not.toContain('a-brand-new-secret');
    const listed = await req('GET', path, cfo.token);
    expect(listed.text).not.toContain('a-brand-new-secret');
    expect(Object.fromEntries(listed.body.fields.map((f: { name: string; value: unknown }) => [f.name, f.value]))).toEqual({
      latencyMs: 35,
      failAbove: '750.50',
      asyncAbove: null,
      failureRate: '0.25', // the suites read JSON decimals as exact text
      secret: null,
    });
    // The new secret is the one stored (callbacks are checked with it).
    const stored = await world.raw.db.query(`SELECT secret FROM gate_providers WHERE id = $1`, [provider.id]);
    expect(stored.rows[0].secret).toBe('a-brand-new-secret-000002');

    // An emptied row removes the knob (its default again).
    const emptied = await req('PATCH', path, cfo.token, { fields: [{ name: 'failAbove', value: '' }] });
    expectStatus(emptied, 200);
    expect(emptied.body.gateProvider.settings).toEqual({ latencyMs: 35, failureRate: '0.25' });

    // Bad input: a clear 400 naming the field, and nothing changed.
    const bad: [unknown, string][] = [
      [{ fields: [{ name: 'colour', value: 'red' }] }, 'fields[0].name'],
      [{ fields: [{ name: 'latencyMs', value: 'soon' }] }, 'fields[0].value'],
      [{ fields: [{ name: 'latencyMs', value: 700000 }] }, 'fields[0].value'],
      [{ fields: [{ name: 'failureRate', value: '1.5' }] }, 'fields[0].value'],
      [{ fields: [{ name: 'failAbove', value: '-1' }] }, 'fields[0].value'],
      [{ fields: [{ name: 'secret', value: '' }] }, 'fields[0].value'],
      [{ fields: [{ name: 'secret', value: 'short' }] }, 'fields[0].value'],
      [
        {
          fields: [
            { name: 'latencyMs', value: 1 },
            { name: 'latencyMs', value: 2 },
          ],
        },
        'fields[1].name',
      ],
      [{ fields: [] }, 'settings'],
      [{ fields: [{ value: 1 }] }, 'fields.0.name'],
    ];
    for (const [body, parameter] of bad) expectError(await req('PATCH', path, cfo.token, body), 400, 'exception.validation', parameter);
    expect((await req('GET', `/gate-providers/${provider.id}`, cfo.token)).body.gateProvider.settings).toEqual({
      latencyMs: 35,
      failureRate: '0.25',
    });
    expectError(
      await req('PATCH', `/gate-providers/${UNKNOWN}/settings`, cfo.token, { fields: [{ name: 'latencyMs', value: 1 }] }),
      404,
      'exception.gate_provider.not_found',
    );
    const support = await world.user({ role: 'customer_support' });
    expectError(
      await req('PATCH', path, support.token, { fields: [{ name: 'latencyMs', value: 1 }] }),
      403,
      'exception.access.permission_missing',
    );

    // Each change is in the action log, by name: never a value, so never the secret.
    const logged = (await actionsOf(cfo, 'gate_provider_settings_changed')).filter((a) => a.details.gateProviderId === provider.id);
    expect(logged.map((a) => a.details.settings)).toEqual(
      expect.arrayContaining([['failAbove'], ['latencyMs'], ['failureRate'], ['secret']]),
    );
    expect(logged).toHaveLength(5);
    expect(JSON.stringify(logged)).not.toContain('a-brand-new-secret');
    expect(logged[0]).toMatchObject({ userId: cfo.id, details: { actorRole: 'cfo' } });
  });

  /** A fresh contract of `user`'s organization, with a provider selling a card top-up and a payout in the world's currency. */
  const aGateContract = async (user?: Actor) => {
    const contract = await aContract(world.server, world.admin);
    if (user) await assignContract(world.server, world.admin, user.organizationId, contract.id);
    const provider = await aProvider('acquiring');
    const product = await req('POST', '/gate/products', world.admin, {
      gateProviderId: provider.id,
      name: 'Card',
      currency: world.currency.code,
      minAmount: '1.00',
      maxAmount: '1000.00',
    });
    expectStatus(product, 201);
    return { contract: contract.id as string, provider, product: product.body.product as { id: string } };
  };
  const profilesPath = (contract: string) => `/contracts/${contract}/gate-commission-profiles`;
  /** The add-provider form's body: the provider and the currency picked from the catalogue. */
  const aGateProfile = async (contract: string, gateProviderId: string, currencyCode = world.currency.code) => {
    const created = await req('POST', profilesPath(contract), cfo.token, { gateProviderId, currencyCode });
    expectStatus(created, 201);
    return created.body.profile as { id: string };
  };

  it('POST /contracts/{id}/gate-commission-profiles — the add-provider form sends {gateProviderId, currencyCode}; one per provider and currency; in the action log', async () => {
    const { contract, provider } = await aGateContract();
    const created = await req('POST', profilesPath(contract), cfo.token, {
      gateProviderId: provider.id,
      currencyCode: world.currency.code,
    });
    expectStatus(created, 201);
    expect(created.body.profile).toMatchObject({
      contractId: contract,
      gateProviderId: provider.id,
      providerCurrency: { code: world.currency.code, name: world.currency.name },
    });
    // A second one for the same provider and currency is a 409; another currency is another profile.
    expectError(
      await req('POST', profilesPath(contract), cfo.token, { gateProviderId: provider.id, currencyCode: world.currency.code }),
      409,
      'exception.gate_commission_profile.exists',
    );
    const other = await aCurrency(world.server, world.admin);
    const second = await req('POST', profilesPath(contract), cfo.token, { gateProviderId: provider.id, currencyCode: other.code });
    expectStatus(second, 201);
    expect(second.body.profile.providerCurrency.code).toBe(other.code);
    // Bad input changes nothing.
    expectError(
      await req('POST', profilesPath(contract), cfo.token, { gateProviderId: provider.id, currencyCode: 'NOPE1' }),
      404,
      'exception.currency.not_found',
    );
    expectError(
      await req('POST', profilesPath(contract), cfo.token, { gateProviderId: provider.id, currencyCode: 'usd' }),
      400,
      'exception.validation',
      'currencyCode',
    );
    expect((await req('GET', profilesPath(contract), cfo.token)).body.records).toHaveLength(2);
    const accountant = await world.user({ role: 'accountant' });
    expectError(
      await req('POST', profilesPath(contract), accountant.token, { gateProviderId: provider.id, currencyCode: world.currency.code }),
      403,
      'exception.access.permission_missing',
    );
    const logged = (await actionsOf(cfo, 'gate_commission_profile_created')).filter((a) => a.details.contractId === contract);
    expect(logged.map((a) => a.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          gateCommissionProfileId: created.body.profile.id,
          gateProviderId: provider.id,
          currency: world.currency.code,
        }),
        expect.objectContaining({ gateCommissionProfileId: second.body.profile.id, currency: other.code }),
      ]),
    );
  });

  it('GET /contracts/{id}/gate-commission-profiles — the provider-commission table reads id, gateProviderId and providerCurrency.code', async () => {
    const { contract, provider } = await aGateContract();
    const profile = await aGateProfile(contract, provider.id);
    const listed = await req('GET', profilesPath(contract), world.admin);
    expectStatus(listed, 200);
    expect(listed.body.records).toEqual([
      expect.objectContaining({
        id: profile.id,
        gateProviderId: provider.id,
        providerCurrency: expect.objectContaining({ code: world.currency.code }),
      }),
    ]);
    // A profile made without a currency (as before) holds for every currency: its providerCurrency is null.
    const any = await req('POST', profilesPath(contract), world.admin, { gateProviderId: (await aProvider()).id });
    expectStatus(any, 201);
    expect(any.body.profile.providerCurrency).toBeNull();
    expectError(await req('GET', profilesPath(UNKNOWN), world.admin), 404, 'exception.contract.not_found');
  });

  it('GET /contracts/{id}/gate-commission-profiles/{id} — the gate details page reads profile.providerCurrency.code and gateProviderId', async () => {
    const { contract, provider } = await aGateContract();
    const profile = await aGateProfile(contract, provider.id);
    const got = await req('GET', `${profilesPath(contract)}/${profile.id}`, world.admin);
    expectStatus(got, 200);
    expect(got.body.profile).toMatchObject({
      id: profile.id,
      gateProviderId: provider.id,
      providerCurrency: { code: world.currency.code, symbol: world.currency.symbol ?? null },
    });
    expect(got.body.profile.updatedAt).toEqual(expect.any(String));
    expectError(
      await req('GET', `${profilesPath(DEFAULT_INDIVIDUAL)}/${profile.id}`, world.admin),
      404,
      'exception.gate_commission_profile.not_found',
    );
  });

  const settingsPath = (contract: string, profile: string) => `${profilesPath(contract)}/${profile}/commission-settings-records`;
  const setUp = (token: string, contract: string, profile: string, body: unknown) =>
    req('POST', `${settingsPath(contract, profile)}/set-up-commission-settings`, token, body);
  const calculate = (user: Actor, serial: string, gateProviderId: string, amount: string) =>
    req('POST', '/gate/transactions/calculate', user.token, { serial, amount, txType: 'TOPUP', gateProviderId });

  it('POST /contracts/{id}/gate-commission-profiles/{id}/commission-settings-records/set-up-commission-settings — the commission form’s body; TOTAL prices the TOPUP exactly, through quote(); in the action log', async () => {
    const alice = await world.user();
    const { contract, provider } = await aGateContract(alice);
    const profile = await aGateProfile(contract, provider.id);
    const coin = await world.coin(alice);
    expect((await calculate(alice, coin.serial, provider.id, '200')).body.commissionAmount).toBe('0.00');

    // The form sends both commissions, the values its type does not use as null, the values as typed (text).
    const set = await setUp(cfo.token, contract, profile.id, {
      txType: 'TOPUP',
      providerCommission: { type: 'percent', valuePercent: '0.8', valueFixed: null },
      totalCommission: { type: 'fixed_and_percent', valuePercent: '1.25', valueFixed: '0.35' },
      active: true,
    });
    expectStatus(set, 200);
    expect(set.body.records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          txType: 'TOPUP',
          collector: 'TOTAL',
          active: true,
          value: { type: 'fixed_and_percent', valuePercent: '1.25', valueFixed: '0.35' },
        }),
        expect.objectContaining({ txType: 'TOPUP', collector: 'PROVIDER', active: true, value: { type: 'percent', valuePercent: '0.8' } }),
      ]),
    );
    // The payer pays the TOTAL commission on top: 1.25 % of 200.00 + 0.35 = 2.85, exactly.
    const priced = await calculate(alice, coin.serial, provider.id, '200');
    expect(priced.body).toMatchObject({ amountToSend: '200.00', commissionAmount: '2.85', sourceAmount: '202.85' });

    // The edit form sends the same call: it replaces the type's commissions; inactive, the TOTAL prices nothing.
    const changed = await setUp(cfo.token, contract, profile.id, {
      txType: 'TOPUP',
      providerCommission: { type: 'zero', valuePercent: null, valueFixed: null },
      totalCommission: { type: 'fixed', valueFixed: 1 },
      active: false,
    });
    expectStatus(changed, 200);
    expect(changed.body.records.find((r: { collector: string }) => r.collector === 'PROVIDER').value).toEqual({ type: 'zero' });
    expect((await calculate(alice, coin.serial, provider.id, '200')).body.commissionAmount).toBe('0.00');
    expectStatus(
      await setUp(cfo.token, contract, profile.id, {
        txType: 'TOPUP',
        totalCommission: { type: 'fixed', valueFixed: '1.10' },
        active: true,
      }),
      200,
    );
    expect((await calculate(alice, coin.serial, provider.id, '200')).body.commissionAmount).toBe('1.10');

    // Bad input: a clear 400 naming the field, and nothing changed.
    const bad: [unknown, string][] = [
      [{ txType: 'PAY', totalCommission: { type: 'zero' } }, 'txType'],
      [{ txType: 'TOPUP' }, 'totalCommission'],
      [{ txType: 'TOPUP', totalCommission: { type: 'percent', valuePercent: null } }, 'totalCommission.valuePercent'],
      [{ txType: 'TOPUP', totalCommission: { type: 'percent', valuePercent: '101' } }, 'totalCommission.valuePercent'],
      [{ txType: 'TOPUP', totalCommission: { type: 'fixed', valueFixed: '-1' } }, 'totalCommission.valueFixed'],
      [{ txType: 'TOPUP', totalCommission: { type: 'fixed', valueFixed: '0.001' } }, 'totalCommission.valueFixed'],
      [{ txType: 'TOPUP', totalCommission: { type: 'some' } }, 'totalCommission.type'],
      [{ txType: 'TOPUP', totalCommission: { type: 'zero' }, providerCommission: { type: 'fixed' } }, 'providerCommission.valueFixed'],
    ];
    for (const [body, parameter] of bad)
      expectError(await setUp(cfo.token, contract, profile.id, body), 400, 'exception.validation', parameter);
    expect((await calculate(alice, coin.serial, provider.id, '200')).body.commissionAmount).toBe('1.10');
    expectError(
      await setUp(cfo.token, DEFAULT_INDIVIDUAL, profile.id, { txType: 'TOPUP', totalCommission: { type: 'zero' } }),
      404,
      'exception.gate_commission_profile.not_found',
    );
    const accountant = await world.user({ role: 'accountant' });
    expectError(
      await setUp(accountant.token, contract, profile.id, { txType: 'TOPUP', totalCommission: { type: 'zero' } }),
      403,
      'exception.access.permission_missing',
    );

    const logged = (await actionsOf(cfo, 'gate_commission_settings_set')).filter((a) => a.details.gateCommissionProfileId === profile.id);
    expect(logged).toHaveLength(3);
    expect(logged.map((a) => a.details)).toContainEqual(
      expect.objectContaining({
        contractId: contract,
        txType: 'TOPUP',
        active: true,
        totalCommission: { type: 'fixed_and_percent', valuePercent: '1.25', valueFixed: '0.35' },
        providerCommission: { type: 'percent', valuePercent: '0.8' },
      }),
    );
  });

  it('GET /contracts/{id}/gate-commission-profiles/{id}/commission-settings-records — the gate details table reads txType, collector (TOTAL | PROVIDER), value and active', async () => {
    const { contract, provider } = await aGateContract();
    const profile = await aGateProfile(contract, provider.id);
    const empty = await req('GET', settingsPath(contract, profile.id), world.admin);
    expectStatus(empty, 200);
    expect(empty.body.records).toEqual([]);
    await setUp(world.admin, contract, profile.id, {
      txType: 'TOPUP',
      providerCommission: { type: 'fixed', valuePercent: null, valueFixed: '0.10' },
      totalCommission: { type: 'percent', valuePercent: '2', valueFixed: null },
      active: true,
    });
    await setUp(world.admin, contract, profile.id, {
      txType: 'REDEEM',
      totalCommission: { type: 'zero', valuePercent: null, valueFixed: null },
      active: true,
    });
    const listed = await req('GET', settingsPath(contract, profile.id), cfo.token);
    expectStatus(listed, 200);
    const rows = listed.body.records.map((r: Record<string, unknown>) => ({
      txType: r.txType,
      collector: r.collector,
      value: r.value,
      active: r.active,
    }));
    expect(rows).toEqual([
      { txType: 'TOPUP', collector: 'TOTAL', value: { type: 'percent', valuePercent: 2 }, active: true },
      { txType: 'TOPUP', collector: 'PROVIDER', value: { type: 'fixed', valueFixed: '0.10' }, active: true },
      { txType: 'REDEEM', collector: 'TOTAL', value: { type: 'zero' }, active: true },
    ]);
    for (const record of listed.body.records) expect(record).toMatchObject({ id: expect.any(String), gateCommissionProfileId: profile.id });
    expectError(await req('GET', settingsPath(contract, UNKNOWN), world.admin), 404, 'exception.gate_commission_profile.not_found');
  });

  it('prices by the profile of the payment’s currency, ahead of the provider rule; a product rule still comes first', async () => {
    const alice = await world.user();
    const { contract, provider, product } = await aGateContract(alice);
    const coin = await world.coin(alice, '50.00');
    // A profile for every currency with a provider rule of 1.00, and one of another currency with a TOTAL of 5.00.
    const every = await req('POST', profilesPath(contract), world.admin, { gateProviderId: provider.id });
    expectStatus(every, 201);
    expectStatus(
      await req('POST', `${profilesPath(contract)}/${every.body.profile.id}/commission-provider-rule`, world.admin, {
        type: 'fixed',
        valueFixed: '1.00',
        beginDate: '2026-01-01T00:00:00Z',
        endDate: '2036-01-01T00:00:00Z',
        collector: 'operator',
      }),
      201,
    );
    const other = await aCurrency(world.server, world.admin);
    const abroad = await aGateProfile(contract, provider.id, other.code);
    await setUp(world.admin, contract, abroad.id, { txType: 'TOPUP', totalCommission: { type: 'fixed', valueFixed: '5.00' } });
    expect((await calculate(alice, coin.serial, provider.id, '100')).body.commissionAmount).toBe('1.00');
    // The TOTAL of the coin's currency's profile comes before the provider rule.
    const local = await aGateProfile(contract, provider.id);
    await setUp(world.admin, contract, local.id, { txType: 'TOPUP', totalCommission: { type: 'percent', valuePercent: '0.5' } });
    expect((await calculate(alice, coin.serial, provider.id, '100')).body.commissionAmount).toBe('0.50');
    // A setting of another transaction type prices nothing here.
    await setUp(world.admin, contract, local.id, { txType: 'REDEEM', totalCommission: { type: 'fixed', valueFixed: '9.00' } });
    expect((await calculate(alice, coin.serial, provider.id, '100')).body.commissionAmount).toBe('0.50');
    // A product rule of the provider's product comes first.
    expectStatus(
      await req('POST', `${profilesPath(contract)}/${every.body.profile.id}/commission-product-rule`, world.admin, {
        productId: product.id,
        type: 'fixed',
        valueFixed: '0.25',
        beginDate: '2026-01-01T00:00:00Z',
        collector: 'operator',
      }),
      201,
    );
    expect((await calculate(alice, coin.serial, provider.id, '100')).body.commissionAmount).toBe('0.25');

    // A REDEEM through a payout provider is priced by its REDEEM setting: its hold as its price says.
    const payout = await aProvider('payout');
    expectStatus(
      await req('POST', '/gate/products', world.admin, {
        gateProviderId: payout.id,
        name: 'Card payout',
        currency: world.currency.code,
        minAmount: '1.00',
        maxAmount: '1000.00',
      }),
      201,
    );
    const payoutProfile = await aGateProfile(contract, payout.id);
    await setUp(world.admin, contract, payoutProfile.id, { txType: 'REDEEM', totalCommission: { type: 'fixed', valueFixed: '1.50' } });
    const redeem = await req('POST', '/gate/transactions/calculate', alice.token, {
      serial: coin.serial,
      amount: '20',
      txType: 'REDEEM',
      gateProviderId: payout.id,
    });
    expectStatus(redeem, 200);
    expect(redeem.body).toMatchObject({ commissionAmount: '1.50', sourceAmount: '21.50', amountToSend: '20.00' });
    const held = await world.server.request('POST', '/api/v1/gate/transactions', {
      token: alice.token,
      body: { amount: '20', coin: coin.serial, method: { gateProviderId: payout.id, way: 'Card payout' }, type: 'REDEEM' },
      headers: { 'Idempotency-Key': `redeem-${coin.serial}` },
    });
    expectStatus(held, 201);
    expect(held.body.transaction).toMatchObject({ amount: '20.00', commission: '1.50' });
  });
});
