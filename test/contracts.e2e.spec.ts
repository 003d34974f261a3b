import { aUser, login } from './helpers/actors';
import { aContract, aProfile, aRule, DEFAULT_CONTRACTS } from './helpers/commissions';
import { aCurrency, anIssuer, expectError, expectStatus } from './helpers/money';
import { moneyWorld } from './helpers/world';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

describe('contracts, commission profiles and rules', () => {
  const world = moneyWorld();

  const api = (method: string, path: string, body?: unknown, token = world.admin) =>
    world.server.request(method, `/api/v1${path}`, { token, body });

  describe('contracts', () => {
    it('seeds one default, global contract per organization type, and every organization follows its type’s', async () => {
      const view = await api('POST', '/contracts/view', { filter: { global: true }, pageSize: 100 });
      expectStatus(view, 200);
      const defaults = view.body.records.filter((c: any) => c.default);
      expect(Object.fromEntries(defaults.map((c: any) => [c.organizationType, c.id]))).toEqual(DEFAULT_CONTRACTS);
      for (const c of defaults) expect(c).toMatchObject({ global: true, active: true, personType: 'base' });
      expect(view.body).toMatchObject({ status: 'ok', pageNumber: 0, pageSize: 100, totalPages: 1 });

      // The administrator's organization (support) and a new individual's: the login's contract_info is a real contract.
      const adminLogin = await world.server.request('POST', '/api/v1/authorization', {
        body: { login: 'admin', password: 'admin-password-1' },
      });
      expect(adminLogin.body.members[0].organization.contract_info).toEqual({ id: DEFAULT_CONTRACTS.support, personType: 'base' });
      const alice = await world.user();
      const merchant = await world.user({ role: 'merchant' });
      const { rows } = await world.server.db.query(
        'SELECT id::text, contract_id::text FROM organizations WHERE id = ANY($1::uuid[]) ORDER BY type',
        [[alice.organizationId, merchant.organizationId]],
      );
      expect(rows.map((r: any) => r.contract_id)).toEqual([DEFAULT_CONTRACTS.individual, DEFAULT_CONTRACTS.merchant]);
      const got = await api('GET', `/contracts/${DEFAULT_CONTRACTS.merchant}`);
      expectStatus(got, 200);
      expect(got.body.contract).toMatchObject({ id: DEFAULT_CONTRACTS.merchant, organizationType: 'merchant', default: true });
    });

    it('creates, reads, searches and changes a contract', async () => {
      const created = await api('POST', '/contracts', {
        name: 'Gold merchants',
        description: 'Lower fees',
        organizationType: 'merchant',
        personType: 'gold',
      });
      expectStatus(created, 201);
      const contract = created.body.contract;
      expect(contract).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Gold merchants',
        description: 'Lower fees',
        organizationType: 'merchant',
        personType: 'gold',
        active: true,
        global: false,
        default: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const changed = await api('PATCH', `/contracts/${contract.id}`, { name: 'Gold merchants 2026', active: false });
      expectStatus(changed, 200);
      expect(changed.body.contract).toMatchObject({ name: 'Gold merchants 2026', active: false, description: 'Lower fees' });
      const found = await api('POST', '/contracts/view', {
        filter: { name: 'gold merchants', personTypes: ['gold'], organizationTypes: ['merchant'] },
      });
      expect(found.body.records.map((c: any) => c.id)).toEqual([contract.id]);
      expect(found.body.totalRecords).toBe(1);
    });

    it('validates contracts: 400 for bad input and malformed ids, 404 for unknown ones, 409 to deactivate a default', async () => {
      expectError(
        await api('POST', '/contracts', { name: 'X', organizationType: 'bank' }),
        400,
        'exception.validation',
        'organizationType',
      );
      expectError(await api('POST', '/contracts', { organizationType: 'merchant' }), 400, 'exception.validation', 'name');
      expectError(
        await api('POST', '/contracts', { name: 'x'.repeat(201), organizationType: 'merchant' }),
        400,
        'exception.validation',
        'name',
      );
      expectError(await api('POST', '/contracts', { name: 'X', organizationType: 'merchant', personType: 'platinum' }), 400);
      expectError(
        await api('POST', '/contracts', { name: 'X', organizationType: 'merchant', default: true }),
        400,
        'exception.validation',
        'default',
      );
      expectError(await api('PATCH', `/contracts/${DEFAULT_CONTRACTS.merchant}`, { organizationType: 'individual' }), 400);
      expectError(await api('POST', '/contracts/view', { filter: { colour: 'red' } }), 400, 'exception.validation', 'filter.colour');
      expectError(await api('GET', '/contracts/not-a-uuid'), 400, 'exception.validation', 'id');
      expectError(await api('GET', `/contracts/${UNKNOWN}`), 404, 'exception.contract.not_found');
      expectError(await api('PATCH', `/contracts/${UNKNOWN}`, { name: 'Y' }), 404, 'exception.contract.not_found');
      expectError(
        await api('PATCH', `/contracts/${DEFAULT_CONTRACTS.individual}`, { active: false }),
        409,
        'exception.contract.default_locked',
      );
    });

    it('assigns a contract to an organization: its type only (400), active (409), and unless global to one organization (409)', async () => {
      const alice = await world.user();
      const bob = await world.user();
      const own = await aContract(world.server, world.admin, { personType: 'vip' });
      const assigned = await api('PUT', `/organizations/${alice.organizationId}/contract`, { contractId: own.id });
      expectStatus(assigned, 200);
      expect(assigned.body).toMatchObject({ status: 'ok', organizationId: alice.organizationId, contract: { id: own.id } });
      // The login points at it at once.
      const again = await world.server.request('POST', '/api/v1/authorization', { body: { login: alice.login, password: alice.password } });
      expect(again.body.members[0].organization.contract_info.id).toBe(own.id);
      // Assigning the same contract again changes nothing; another organization may not take a contract that is not global.
      expectStatus(await api('PUT', `/organizations/${alice.organizationId}/contract`, { contractId: own.id }), 200);
      expectError(
        await api('PUT', `/organizations/${bob.organizationId}/contract`, { contractId: own.id }),
        409,
        'exception.contract.in_use',
      );
      const shared = await aContract(world.server, world.admin, { global: true });
      expectStatus(await api('PUT', `/organizations/${alice.organizationId}/contract`, { contractId: shared.id }), 200);
      expectStatus(await api('PUT', `/organizations/${bob.organizationId}/contract`, { contractId: shared.id }), 200);
      const merchantContract = await aContract(world.server, world.admin, { organizationType: 'merchant' });
      expectError(
        await api('PUT', `/organizations/${bob.organizationId}/contract`, { contractId: merchantContract.id }),
        400,
        'exception.validation',
        'contractId',
      );
      const retired = await aContract(world.server, world.admin, { active: false });
      expectError(
        await api('PUT', `/organizations/${bob.organizationId}/contract`, { contractId: retired.id }),
        409,
        'exception.contract.inactive',
      );
      expectError(
        await api('PUT', `/organizations/${UNKNOWN}/contract`, { contractId: shared.id }),
        404,
        'exception.organization.not_found',
      );
      expectError(
        await api('PUT', `/organizations/${bob.organizationId}/contract`, { contractId: UNKNOWN }),
        404,
        'exception.contract.not_found',
      );
      expectError(
        await api('PUT', `/organizations/nope/contract`, { contractId: shared.id }),
        400,
        'exception.validation',
        'organizationId',
      );
      expectError(
        await api('PUT', `/organizations/${bob.organizationId}/contract`, { contractId: 'nope' }),
        400,
        'exception.validation',
        'contractId',
      );
      // Back to the default.
      expectStatus(await api('PUT', `/organizations/${bob.organizationId}/contract`, { contractId: DEFAULT_CONTRACTS.individual }), 200);
      const { rows } = await world.server.db.query('SELECT contract_id::text FROM organizations WHERE id = $1', [bob.organizationId]);
      expect(rows[0].contract_id).toBe(DEFAULT_CONTRACTS.individual);
    });

    it('copies a contract with its commission profiles, rules and conditions', async () => {
      const original = await aContract(world.server, world.admin, {
        organizationType: 'merchant',
        personType: 'gold',
        description: 'Original',
      });
      const profile = await aProfile(world.server, world.admin, original.id, world.issuer.id);
      await aRule(world.server, world.admin, original.id, profile.id, {
        conditions: [
          { beginAmount: '0', endAmount: '100', commission: { type: 'fixed', valueFixed: '1' } },
          { beginAmount: '100', commission: { type: 'percent', valuePercent: '0.5', rounding: 'up', minFee: '0.75' } },
        ],
      });
      const copied = await api('POST', `/contracts/${original.id}/copy`, { name: 'Copy for ACME' });
      expectStatus(copied, 201);
      expect(copied.body.copiedProfiles).toBe(1);
      expect(copied.body.contract).toMatchObject({
        name: 'Copy for ACME',
        organizationType: 'merchant',
        personType: 'gold',
        description: 'Original',
        global: false,
        default: false,
      });
      const copy = copied.body.contract.id;
      const profiles = await api('POST', `/contracts/${copy}/commission-profiles/view`, {});
      expect(profiles.body.records).toHaveLength(1);
      const copiedProfile = profiles.body.records[0];
      expect(copiedProfile).toMatchObject({
        contractId: copy,
        flow: { id: 'client_transaction_transfer' },
        issuer: { id: world.issuer.id },
      });
      expect(copiedProfile.id).not.toBe(profile.id);
      const rules = await api('POST', `/contracts/${copy}/commission-profiles/${copiedProfile.id}/commission-rule/view`, {
        filterCriteria: 'FOR_DATE',
      });
      expect(rules.body.records).toHaveLength(1);
      expect(rules.body.records[0].conditions.map((c: any) => [c.beginAmount, c.endAmount, c.commission])).toEqual([
        ['0.00', '100.00', { type: 'fixed', valuePercent: null, valueFixed: '1.00', rounding: 'half_up', minFee: null }],
        ['100.00', null, { type: 'percent', valuePercent: '0.5', valueFixed: null, rounding: 'up', minFee: '0.75' }],
      ]);
      // The original is untouched, and a copy of an unknown contract is a 404.
      const originalRules = await api('POST', `/contracts/${original.id}/commission-profiles/${profile.id}/commission-rule/view`, {
        filterCriteria: 'FOR_DATE',
      });
      expect(originalRules.body.records[0].id).not.toBe(rules.body.records[0].id);
      expectError(await api('POST', `/contracts/${UNKNOWN}/copy`, {}), 404, 'exception.contract.not_found');
    });

    it('needs CONTRACT_VIEWER to read and CONTRACT_MANAGER to change; accountants read, customers do neither', async () => {
      const accountant = await aUser(world.server, world.admin, { role: 'accountant' });
      const cfo = await aUser(world.server, world.admin, { role: 'cfo' });
      const alice = await world.user();
      expectStatus(await api('POST', '/contracts/view', {}, accountant.token), 200);
      expectStatus(await api('GET', `/contracts/${DEFAULT_CONTRACTS.individual}`, undefined, accountant.token), 200);
      expectError(await api('POST', '/contracts', { name: 'X', organizationType: 'merchant' }, accountant.token), 403);
      expectError(
        await api('PUT', `/organizations/${alice.organizationId}/contract`, { contractId: DEFAULT_CONTRACTS.individual }, accountant.token),
        403,
      );
      expectStatus(await api('POST', '/contracts', { name: 'By the cfo', organizationType: 'merchant' }, cfo.token), 201);
      expectError(await api('POST', '/contracts/view', {}, alice.token), 403);
      expectError(await api('GET', '/operation-flows', undefined, ''), 401);
    });
  });

  it('lists the operation flows, one list with the operation types', async () => {
    const alice = await world.user();
    const flows = await api('GET', '/operation-flows', undefined, alice.token);
    expectStatus(flows, 200);
    expect(flows.body.status).toBe('ok');
    expect(flows.body.records.map((f: any) => f.name)).toEqual([
      'client_transaction_transfer',
      'bank_topup',
      'bank_withdrawal',
      'exchange',
      'cash_in',
      'cash_out',
      'voucher',
      'gate_payment',
      'invoice_payment',
      'merchant_payment',
    ]);
    for (const f of flows.body.records) expect(f.description).toEqual(expect.any(String));
    const doc = (await world.server.request('GET', '/swagger/openapi.json')).body;
    const types = doc.components.schemas.OperationDto.properties.type.enum;
    // A flow that exists as an operation has the operation type of the same name (issue 12 added bank withdrawals and cash desk
    // operations, issue 13 `exchange`, issue 14 `gate_payment`, issue 15 `invoice_payment` and `merchant_payment`).
    expect(types.filter((t: string) => flows.body.records.some((f: any) => f.name === t))).toEqual([
      'client_transaction_transfer',
      'bank_topup',
      'bank_withdrawal',
      'cash_in',
      'cash_out',
      'exchange',
      'gate_payment',
      'invoice_payment',
      'merchant_payment',
    ]);
  });

  describe('commission profiles', () => {
    let contract: any;
    beforeAll(async () => {
      contract = await aContract(world.server, world.admin);
    });
    const base = () => `/contracts/${contract.id}/commission-profiles`;

    it('creates one profile per flow and issuer, reads, searches, changes and deletes it', async () => {
      const created = await api('POST', base(), { flow: 'bank_topup', issuerId: world.issuer.id, name: 'Top-ups' });
      expectStatus(created, 201);
      const profile = created.body.profile;
      expect(profile).toMatchObject({
        contractId: contract.id,
        flow: { id: 'bank_topup', processType: 'bank_topup', transactionType: 'issue' },
        name: 'Top-ups',
        description: null,
        active: true,
        issuer: { id: world.issuer.id, currency: world.currency.code, fraction: 100 },
      });
      // Its issuer's commission coin exists from now on.
      const { rows } = await world.server.db.query(
        `SELECT 1 FROM coins WHERE issuer_id = $1 AND type = 'system' AND system_kind = 'commission'`,
        [world.issuer.id],
      );
      expect(rows).toHaveLength(1);
      expectError(await api('POST', base(), { flow: 'bank_topup', issuerId: world.issuer.id }), 409, 'exception.commission.profile_exists');
      expectStatus(await api('POST', base(), { flow: 'cash_in', issuerId: world.issuer.id }), 201);
      const view = await api('POST', `${base()}/view`, { filter: { flows: ['bank_topup'] } });
      expect(view.body.records.map((p: any) => p.id)).toEqual([profile.id]);
      expect((await api('POST', `${base()}/view`, {})).body.totalRecords).toBe(2);
      expectStatus(await api('GET', `${base()}/${profile.id}`), 200);
      const patched = await api('PATCH', `${base()}/${profile.id}`, { description: 'Bank money in', active: false });
      expectStatus(patched, 200);
      expect(patched.body.profile).toMatchObject({ name: 'Top-ups', description: 'Bank money in', active: false });
      expectError(await api('PATCH', `${base()}/${profile.id}`, { flow: 'exchange' }), 400, 'exception.validation', 'flow');
      const deleted = await api('DELETE', `${base()}/${profile.id}`);
      expectStatus(deleted, 200);
      expect(deleted.body).toEqual({ status: 'ok', message: 'Commission profile deleted', id: profile.id });
      expectError(await api('GET', `${base()}/${profile.id}`), 404, 'exception.commission.profile_not_found');
      expectError(await api('DELETE', `${base()}/${profile.id}`), 404, 'exception.commission.profile_not_found');
    });

    it('refuses an unknown flow (400), an unknown issuer (404), and answers malformed ids with 400 and unknown ones with 404', async () => {
      expectError(await api('POST', base(), { flow: 'teleport', issuerId: world.issuer.id }), 400, 'exception.validation', 'flow');
      expectError(await api('POST', base(), { flow: 'exchange', issuerId: UNKNOWN }), 404, 'exception.issuer.not_found');
      expectError(await api('POST', base(), { flow: 'exchange', issuerId: 'x' }), 400, 'exception.validation', 'issuerId');
      expectError(
        await api('POST', `/contracts/x/commission-profiles`, { flow: 'exchange', issuerId: world.issuer.id }),
        400,
        'exception.validation',
        'contractId',
      );
      expectError(await api('POST', `/contracts/${UNKNOWN}/commission-profiles/view`, {}), 404, 'exception.contract.not_found');
      expectError(await api('GET', `${base()}/x`), 400, 'exception.validation', 'profileId');
      expectError(await api('GET', `${base()}/${UNKNOWN}`), 404, 'exception.commission.profile_not_found');
      // A profile is reached only through its own contract.
      const other = await aContract(world.server, world.admin);
      const profile = await aProfile(world.server, world.admin, other.id, world.issuer.id);
      expectError(await api('GET', `${base()}/${profile.id}`), 404, 'exception.commission.profile_not_found');
    });
  });

  describe('commission rules and conditions', () => {
    let contract: any;
    let profile: any;
    let units: any;
    beforeAll(async () => {
      contract = await aContract(world.server, world.admin);
      profile = await aProfile(world.server, world.admin, contract.id, world.issuer.id, 'exchange');
      const unitsIssuer = await anIssuer(world.server, world.admin, (await aCurrency(world.server, world.admin, { fraction: 1 })).code);
      units = await aProfile(world.server, world.admin, contract.id, unitsIssuer.id, 'exchange');
    });
    const rules = (p = profile) => `/contracts/${contract.id}/commission-profiles/${p.id}/commission-rule`;
    const rule = (body: Record<string, unknown>, p = profile) =>
      api('POST', rules(p), { beginDate: '2030-01-01T00:00:00Z', endDate: '2030-02-01T00:00:00Z', payer: 'sender', ...body });

    it('creates a rule with its conditions and answers exact values', async () => {
      const created = await rule({
        payer: 'recipient',
        conditions: [
          {
            beginAmount: '100',
            commission: { type: 'greater_of_fixed_or_percent', valuePercent: 1.25, valueFixed: '2.5', rounding: 'up', minFee: '3' },
          },
          { endAmount: 100, commission: { type: 'fixed', valueFixed: 0.3, valuePercent: '7', rounding: 'half_up', minFee: null } },
        ],
      });
      expectStatus(created, 201);
      const fixed = { type: 'fixed', valuePercent: null, valueFixed: '0.30', rounding: 'half_up', minFee: null };
      const greater = { type: 'greater_of_fixed_or_percent', valuePercent: '1.25', valueFixed: '2.50', rounding: 'up', minFee: '3.00' };
      expect(created.body.rule).toEqual({
        id: expect.any(String),
        profileId: profile.id,
        contractId: contract.id,
        beginDate: '2030-01-01T00:00:00.000Z',
        endDate: '2030-02-01T00:00:00.000Z',
        payer: 'recipient',
        feeDirection: 'IN',
        active: true,
        conditions: [
          // by beginAmount; a value the type does not use is not kept; `value` is the family's name of the commission
          {
            id: expect.any(String),
            beginAmount: '0.00',
            endAmount: '100.00',
            commission: fixed,
            value: fixed,
          },
          {
            id: expect.any(String),
            beginAmount: '100.00',
            endAmount: null,
            commission: greater,
            value: greater,
          },
        ],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(created.text).toContain('"valuePercent":1.25');
      const read = await api('GET', `${rules()}/${created.body.rule.id}`);
      expect(read.body.rule).toEqual(created.body.rule);
    });

    it.each([
      ['percent', { valuePercent: '-1' }, 'conditions.0.commission.valuePercent'],
      ['percent', { valuePercent: -0.01 }, 'conditions.0.commission.valuePercent'],
      ['fixed', { valueFixed: '-0.01' }, 'conditions.0.commission.valueFixed'],
      ['greater_of_fixed_or_percent', { valuePercent: '1', valueFixed: '-1' }, 'conditions.0.commission.valueFixed'],
      ['lesser_of_fixed_or_percent', { valuePercent: '-1', valueFixed: '1' }, 'conditions.0.commission.valuePercent'],
      ['fixed_and_percent', { valuePercent: '1', valueFixed: -5 }, 'conditions.0.commission.valueFixed'],
      ['zero', { valuePercent: '-1' }, 'conditions.0.commission.valuePercent'],
      ['zero', { valueFixed: '-1' }, 'conditions.0.commission.valueFixed'],
    ])('refuses a negative value for a %s commission with 400 (specification 2.3 and 8)', async (type, values, parameter) => {
      const response = await rule({ conditions: [{ commission: { type, ...values } }] });
      expectError(response, 400, 'exception.validation', parameter);
      expect(response.body.errors.find((e: any) => e.parameter === parameter).message).toBe('must not be negative');
    });

    it('refuses malformed rules and conditions with 400', async () => {
      const bad = async (body: Record<string, unknown>, parameter: string, p = profile) =>
        expectError(await rule(body, p), 400, 'exception.validation', parameter);
      await bad({ conditions: [{ beginAmount: '-5', commission: { type: 'zero' } }] }, 'conditions.0.beginAmount');
      await bad({ conditions: [{ endAmount: '-5', commission: { type: 'zero' } }] }, 'conditions.0.endAmount');
      await bad({ conditions: [{ beginAmount: '10', endAmount: '10', commission: { type: 'zero' } }] }, 'conditions.0.endAmount');
      await bad({ conditions: [{ commission: { type: 'percent' } }] }, 'conditions.0.commission.valuePercent');
      await bad({ conditions: [{ commission: { type: 'fixed_and_percent', valuePercent: '1' } }] }, 'conditions.0.commission.valueFixed');
      await bad({ conditions: [{ commission: { type: 'percent', valuePercent: '100.01' } }] }, 'conditions.0.commission.valuePercent');
      await bad({ conditions: [{ commission: { type: 'percent', valuePercent: 'much' } }] }, 'conditions.0.commission.valuePercent');
      await bad({ conditions: [{ commission: { type: 'tip' } }] }, 'conditions.0.commission.type');
      await bad({ conditions: [{ commission: { type: 'fixed', valueFixed: '0.001' } }] }, 'conditions.0.commission.valueFixed');
      await bad({ conditions: [{ commission: { type: 'fixed', valueFixed: '0.5' } }] }, 'conditions.0.commission.valueFixed', units);
      await bad({ conditions: [{ beginAmount: '0.5', commission: { type: 'zero' } }] }, 'conditions.0.beginAmount', units);
      await bad({ conditions: [{ commission: { type: 'zero' }, extra: 1 }] }, 'conditions.0.extra');
      // How a fee rounds, and its minimum (issue 29): an amount of the currency, never negative, never on a zero commission.
      await bad(
        { conditions: [{ commission: { type: 'percent', valuePercent: '1', rounding: 'down' } }] },
        'conditions.0.commission.rounding',
      );
      await bad(
        { conditions: [{ commission: { type: 'percent', valuePercent: '1', minFee: '-0.01' } }] },
        'conditions.0.commission.minFee',
      );
      await bad({ conditions: [{ commission: { type: 'percent', valuePercent: '1', minFee: 'some' } }] }, 'conditions.0.commission.minFee');
      await bad(
        { conditions: [{ commission: { type: 'percent', valuePercent: '1', minFee: '0.001' } }] },
        'conditions.0.commission.minFee',
      );
      await bad(
        { conditions: [{ commission: { type: 'percent', valuePercent: '1', minFee: '0.5' } }] },
        'conditions.0.commission.minFee',
        units,
      );
      await bad({ conditions: [{ commission: { type: 'zero', minFee: '0.05' } }] }, 'conditions.0.commission.minFee');
      await bad({ conditions: [{}] }, 'conditions.0.commission');
      await bad({ payer: 'bank' }, 'payer');
      await bad({ beginDate: '2030-13-01T00:00:00Z' }, 'beginDate');
      await bad({ beginDate: '01/02/2030' }, 'beginDate');
      await bad({ endDate: '2030-01-01T00:00:00Z' }, 'endDate');
      await bad({ endDate: '2029-12-31T23:59:59Z' }, 'endDate');
      await bad({ beginDate: undefined }, 'beginDate');
    });

    it('answers 404 for a rule or a condition under an unknown profile or rule', async () => {
      const unknown = '00000000-0000-4000-8000-00000000dead';
      const valid = { beginDate: '2035-01-01T00:00:00Z', endDate: '2035-02-01T00:00:00Z', payer: 'sender' };
      expectError(
        await api('POST', `/contracts/${contract.id}/commission-profiles/${unknown}/commission-rule`, valid),
        404,
        'exception.commission.profile_not_found',
      );
      const condition = { beginAmount: '0', commission: { type: 'zero' } };
      expectError(await api('POST', `${rules()}/${unknown}/conditions`, condition), 404, 'exception.commission.rule_not_found');
    });

    it('refuses overlapping amount ranges within a rule with 409', async () => {
      const overlap = await rule({
        beginDate: '2031-01-01T00:00:00Z',
        endDate: '2031-02-01T00:00:00Z',
        conditions: [
          { beginAmount: '0', endAmount: '100', commission: { type: 'zero' } },
          { beginAmount: '99.99', commission: { type: 'zero' } },
        ],
      });
      expectError(overlap, 409, 'exception.commission.condition_overlap');
      const unbounded = await rule({
        beginDate: '2031-01-01T00:00:00Z',
        endDate: '2031-02-01T00:00:00Z',
        conditions: [
          { beginAmount: '0', commission: { type: 'zero' } },
          { beginAmount: '1000', commission: { type: 'zero' } },
        ],
      });
      expectError(unbounded, 409, 'exception.commission.condition_overlap');
      // Touching ranges are fine; so is adding one that fits, but not one that meets another.
      const ok = await rule({
        beginDate: '2031-01-01T00:00:00Z',
        endDate: '2031-02-01T00:00:00Z',
        conditions: [{ beginAmount: '0', endAmount: '100', commission: { type: 'zero' } }],
      });
      expectStatus(ok, 201);
      const conditions = `${rules()}/${ok.body.rule.id}/conditions`;
      expectError(
        await api('POST', conditions, { beginAmount: '50', commission: { type: 'zero' } }),
        409,
        'exception.commission.condition_overlap',
      );
      const added = await api('POST', conditions, {
        beginAmount: '100',
        endAmount: '500',
        commission: { type: 'percent', valuePercent: '2' },
      });
      expectStatus(added, 201);
      expect(added.body.rule.conditions.map((c: any) => c.beginAmount)).toEqual(['0.00', '100.00']);
      expectError(
        await api('POST', conditions, { beginAmount: '-1', commission: { type: 'zero' } }),
        400,
        'exception.validation',
        'beginAmount',
      );
      const removed = await api('DELETE', `${conditions}/${added.body.rule.conditions[0].id}`);
      expectStatus(removed, 200);
      expect(removed.body.rule.conditions.map((c: any) => c.beginAmount)).toEqual(['100.00']);
      expectError(await api('DELETE', `${conditions}/${UNKNOWN}`), 404, 'exception.commission.condition_not_found');
    });

    it('refuses two active rules of a profile over the same dates with 409; inactive or touching ones are fine', async () => {
      const first = await rule({ beginDate: '2032-01-01T00:00:00Z', endDate: '2032-07-01T00:00:00Z' });
      expectStatus(first, 201);
      expectError(
        await rule({ beginDate: '2032-06-30T00:00:00Z', endDate: '2033-01-01T00:00:00Z' }),
        409,
        'exception.commission.rule_overlap',
      );
      expectError(await rule({ beginDate: '2031-12-01T00:00:00Z', endDate: null }), 409, 'exception.commission.rule_overlap');
      expectStatus(await rule({ beginDate: '2032-07-01T00:00:00Z', endDate: '2033-01-01T00:00:00Z' }), 201);
      const inactive = await rule({ beginDate: '2032-03-01T00:00:00Z', endDate: '2032-04-01T00:00:00Z', active: false });
      expectStatus(inactive, 201);
      // Activating it would overlap; so would stretching the first rule into the next one.
      expectError(await api('PATCH', `${rules()}/${inactive.body.rule.id}`, { active: true }), 409, 'exception.commission.rule_overlap');
      expectError(
        await api('PATCH', `${rules()}/${first.body.rule.id}`, { endDate: '2032-08-01T00:00:00Z' }),
        409,
        'exception.commission.rule_overlap',
      );
      expectError(
        await api('PATCH', `${rules()}/${first.body.rule.id}`, { beginDate: '2032-07-01T00:00:00Z' }),
        400,
        'exception.validation',
        'endDate',
      );
      const patched = await api('PATCH', `${rules()}/${first.body.rule.id}`, {
        payer: 'recipient',
        conditions: [{ commission: { type: 'fixed', valueFixed: '1' } }],
      });
      expectStatus(patched, 200);
      expect(patched.body.rule).toMatchObject({ payer: 'recipient', conditions: [{ beginAmount: '0.00', commission: { type: 'fixed' } }] });
      expectStatus(await api('DELETE', `${rules()}/${inactive.body.rule.id}`), 200);
      expectError(await api('GET', `${rules()}/${inactive.body.rule.id}`), 404, 'exception.commission.rule_not_found');
    });

    describe('the commission-rule view', () => {
      let viewed: any;
      const ids: Record<string, string> = {};
      beforeAll(async () => {
        viewed = await aProfile(world.server, world.admin, contract.id, world.issuer.id, 'voucher');
        ids.past = (await rule({ beginDate: '2020-01-01T00:00:00Z', endDate: '2021-01-01T00:00:00Z' }, viewed)).body.rule.id;
        ids.now = (await rule({ beginDate: '2021-01-01T00:00:00Z', endDate: '2099-01-01T00:00:00Z' }, viewed)).body.rule.id;
        ids.later = (await rule({ beginDate: '2099-01-01T00:00:00Z', endDate: null }, viewed)).body.rule.id;
      });
      const view = (body: unknown, contractId = contract.id, profileId = viewed.id) =>
        api('POST', `/contracts/${contractId}/commission-profiles/${profileId}/commission-rule/view`, body);

      it('answers 400 without filterCriteria (specification section 7)', async () => {
        expectError(await view({}), 400, 'exception.validation', 'filterCriteria');
        expectError(
          await view({ pageNumber: 0, pageSize: 20, date: '2025-01-01T00:00:00Z' }),
          400,
          'exception.validation',
          'filterCriteria',
        );
        expectError(await view({ filterCriteria: 'ON_DATE' }), 400, 'exception.validation', 'filterCriteria');
        expectError(await view({ filterCriteria: 'FOR_DATE', date: 'yesterday' }), 400, 'exception.validation', 'date');
        expectError(await view({ filterCriteria: 'FOR_DATE', filter: { flow: 'x' } }), 400, 'exception.validation', 'filter.flow');
      });

      it('answers an invalid contractId or profileId with 400 (malformed) or 404 (unknown), never 500', async () => {
        const body = { filterCriteria: 'FOR_DATE' };
        expectError(await view(body, 'not-a-uuid'), 400, 'exception.validation', 'contractId');
        expectError(await view(body, contract.id, '12345'), 400, 'exception.validation', 'profileId');
        expectError(await view(body, "1' OR '1'='1"), 400, 'exception.validation', 'contractId');
        expectError(await view(body, UNKNOWN), 404, 'exception.contract.not_found');
        expectError(await view(body, contract.id, UNKNOWN), 404, 'exception.commission.profile_not_found');
        const other = await aContract(world.server, world.admin);
        expectError(await view(body, other.id, viewed.id), 404, 'exception.commission.profile_not_found');
      });

      it('picks rules FOR_DATE, BEFORE_DATE and FROM_DATE', async () => {
        const pick = async (filterCriteria: string, date?: string) => {
          const response = await view({ filterCriteria, ...(date ? { date } : {}) });
          expectStatus(response, 200);
          expect(response.body).toMatchObject({ status: 'ok', pageNumber: 0, pageSize: 20 });
          return response.body.records.map((r: any) => Object.keys(ids).find((k) => ids[k] === r.id));
        };
        expect(await pick('FOR_DATE')).toEqual(['now']);
        expect(await pick('FOR_DATE', '2020-06-01T00:00:00Z')).toEqual(['past']);
        expect(await pick('FOR_DATE', '2021-01-01T00:00:00Z')).toEqual(['now']);
        expect(await pick('BEFORE_DATE')).toEqual(['past']);
        expect(await pick('BEFORE_DATE', '2020-12-31T23:59:59Z')).toEqual([]);
        expect(await pick('FROM_DATE')).toEqual(['later']);
        expect(await pick('FROM_DATE', '2021-01-01T00:00:00Z')).toEqual(['now', 'later']);
        const desc = await view({ filterCriteria: 'FROM_DATE', date: '2000-01-01T00:00:00Z', sort: { beginDate: 'desc' }, pageSize: 2 });
        expect(desc.body.records.map((r: any) => r.id)).toEqual([ids.later, ids.now]);
        expect(desc.body).toMatchObject({ totalRecords: 3, totalPages: 2 });
      });
    });

    it('needs COMMISSION_VIEWER to read and COMMISSION_MANAGER to change', async () => {
      const accountant = await aUser(world.server, world.admin, { role: 'accountant' });
      const support = await aUser(world.server, world.admin, { role: 'customer_support' });
      const body = { filterCriteria: 'FOR_DATE' };
      expectStatus(await api('POST', `${rules()}/view`, body, accountant.token), 200);
      expectError(await api('POST', `${rules()}/view`, body, support.token), 403);
      expectError(await api('POST', rules(), { payer: 'sender', beginDate: '2041-01-01T00:00:00Z' }, accountant.token), 403);
      expectError(await api('DELETE', `/contracts/${contract.id}/commission-profiles/${profile.id}`, undefined, accountant.token), 403);
    });
  });

  it('lists the new routes and permissions in the api-list', async () => {
    const list = (await world.server.request('GET', '/api/v1/actuator/api-list')).body;
    const routes = list.records.flatMap((g: any) => g.records);
    const find = (method: string, path: string) => routes.find((r: any) => r.HTTP_method === method && r.path === path);
    expect(find('POST', '/api/v1/contracts/{contractId}/commission-profiles/{profileId}/commission-rule/view')).toMatchObject({
      permissions: ['COMMISSION_VIEWER'],
      roles: ['administrator', 'cfo', 'compliance_manager', 'accountant'],
    });
    expect(find('PUT', '/api/v1/organizations/{organizationId}/contract')).toMatchObject({ permissions: ['CONTRACT_MANAGER'] });
    expect(find('POST', '/api/v1/commissions/calculate')).toMatchObject({ permissions: ['COMMISSION_VIEWER'] });
    expect(find('POST', '/api/v1/contracts')).toMatchObject({ permissions: ['CONTRACT_MANAGER'], roles: ['administrator', 'cfo'] });
    expect(find('POST', '/api/v1/contracts/view')).toMatchObject({ permissions: ['CONTRACT_VIEWER'] });
    expect(find('GET', '/api/v1/operation-flows')).toBeDefined();
    // A login shows the permissions too.
    const cfo = await aUser(world.server, world.admin, { role: 'cfo' });
    const body = (await world.server.request('POST', '/api/v1/authorization', { body: { login: cfo.login, password: cfo.password } })).body;
    expect(body.members[0].permissions).toEqual(
      expect.arrayContaining(['CONTRACT_VIEWER', 'CONTRACT_MANAGER', 'COMMISSION_VIEWER', 'COMMISSION_MANAGER']),
    );
    expect(typeof (await login(world.server, cfo.login, cfo.password))).toBe('string');
  });
});
