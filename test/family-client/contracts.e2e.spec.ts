import { aContract, aProfile, aRule, assignContract } from '../helpers/commissions';
import { aRate } from '../helpers/exchange';
import { aCoin, aCurrency, anIssuer, balanceOf, expectError, expectStatus, transfer } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * The family web client's contract screens (its `contracts-old` module and the user profile's contract tab), as an
 * administrator uses them: the contracts lists, moving an organization to another contract, a contract's commission
 * profiles by operation flow, their rules with `direction`, and the rules' conditions as their own resource — each
 * with the body the screen sends and the answer fields it reads; every change is in the action log.
 */
describe('family client: contracts and commission profiles', () => {
  const world = moneyWorld();
  const api = (method: string, path: string, body?: unknown, token = world.admin) =>
    world.server.request(method, `/api/v1${path}`, { token, body });
  /** The actions of the log of `action` since `since`, oldest first. */
  const logged = async (action: string, since: Date) =>
    (
      await world.raw.db.query(`SELECT user_id, details FROM user_actions WHERE action = $1 AND created_at >= $2 ORDER BY seq`, [
        action,
        since,
      ])
    ).rows;
  let adminId: string;

  beforeAll(async () => {
    adminId = (await api('GET', '/profiles/my')).body.user.id;
  });

  /** The rule form's dates: the date picker's midnight as ISO text. */
  const rulePeriod = { beginDate: '2020-01-01T00:00:00.000Z', endDate: '2099-12-31T00:00:00.000Z' };
  const rulesOf = (contractId: string, profileId: string) => `/contracts/${contractId}/commission-profiles/${profileId}/commission-rule`;

  describe('contracts', () => {
    it('POST /contracts/view — the individual, merchant and system pages’ `types`, the type filter’s `personTypes`, `id`, and the global-contracts list', async () => {
      const gold = await aContract(world.server, world.admin, { name: 'Family gold individuals', personType: 'gold', global: true });
      const standard = await aContract(world.server, world.admin, { name: 'Family standard individuals', personType: 'standard' });
      const merchant = await aContract(world.server, world.admin, { name: 'Family merchants', organizationType: 'merchant' });
      const names = (answer: any) => answer.body.records.map((r: any) => r.name);

      const individuals = await api('POST', '/contracts/view', { pageNumber: 0, pageSize: 100, filter: { types: ['individual'] } });
      expectStatus(individuals, 200);
      expect(names(individuals)).toEqual(expect.arrayContaining([gold.name, standard.name]));
      expect(names(individuals)).not.toContain(merchant.name);
      // The table reads name and description; the copy form's list reads id and name.
      expect(Object.keys(individuals.body.records[0])).toEqual(expect.arrayContaining(['id', 'name', 'description']));

      // The system page asks for types finapi has no organizations of too: they match nothing, and are no error.
      const system = await api('POST', '/contracts/view', {
        pageNumber: 0,
        filter: { types: ['system', 'gate_provider', 'cash_desk', 'payroll', 'exchanger'] },
      });
      expectStatus(system, 200);
      expect(system.body.records.map((r: any) => r.organizationType).sort()).toEqual(['cash_desk', 'system']);

      // The person-type filter sends the family's `standart`.
      const standarts = await api('POST', '/contracts/view', { filter: { types: ['individual'], personTypes: ['standart'] } });
      expect(names(standarts)).toContain(standard.name);
      expect(names(standarts)).not.toContain(gold.name);
      // The copy form lists the global contracts of the page's type.
      const globals = await api('POST', '/contracts/view', { pageNumber: 0, filter: { types: ['individual'], global: true } });
      expect(names(globals)).toEqual(expect.arrayContaining([gold.name, 'Default individual contract']));
      expect(names(globals)).not.toContain(standard.name);
      // One contract by id, with the client's sort fields.
      const one = await api('POST', '/contracts/view', { filter: { id: merchant.id }, sort: { personType: 'asc', name: 'desc' } });
      expect(one.body.records).toEqual([expect.objectContaining({ id: merchant.id, organizationType: 'merchant', personType: 'base' })]);
      const sorted = await api('POST', '/contracts/view', { all: true, filter: { types: 'individual' }, sort: { personType: 'desc' } });
      const personTypes = sorted.body.records.map((r: any) => r.personType);
      expect(personTypes).toEqual([...personTypes].sort().reverse());
    });

    it('POST /contracts/view — the user-profile screen’s `personTypes: [profile.type]` with `types: [role]` lists the contracts the user can move to', async () => {
      const mine = await aContract(world.server, world.admin, { name: 'Profile tab gold', personType: 'gold' });
      const answer = await api('POST', '/contracts/view', { filter: { personTypes: ['individual'], types: ['individual'] } });
      expectStatus(answer, 200);
      expect(answer.body.records.map((r: any) => r.id)).toContain(mine.id);
      expect(answer.body.records.every((r: any) => r.organizationType === 'individual')).toBe(true);
    });

    it('POST /contracts/view — the compliance manager’s contracts screen (the client routes it to administrator, compliance_manager and cfo) lists contracts and their profiles, and changes nothing', async () => {
      const compliance = await world.user({ role: 'compliance_manager' });
      const listed = await api('POST', '/contracts/view', { filter: { types: ['individual'] }, pageNumber: 0 }, compliance.token);
      expectStatus(listed, 200);
      expect(listed.body.records.length).toBeGreaterThan(0);
      const contract = listed.body.records[0];
      expectStatus(await api('GET', `/contracts/${contract.id}/commission-profiles`, undefined, compliance.token), 200);
      expectError(
        await api('PATCH', `/contracts/${contract.id}`, { name: 'Renamed' }, compliance.token),
        403,
        'exception.access.permission_missing',
      );
    });

    it('POST /contracts/view — unknown types, person types and sort fields are a 400 naming them', async () => {
      expectError(await api('POST', '/contracts/view', { filter: { types: ['alien'] } }), 400, 'exception.validation', 'filter.types');
      expectError(
        await api('POST', '/contracts/view', { filter: { personTypes: ['platinum'] } }),
        400,
        'exception.validation',
        'filter.personTypes',
      );
      expectError(await api('POST', '/contracts/view', { sort: { colour: 'asc' } }), 400, 'exception.validation', 'sort.colour');
      expectError(await api('POST', '/contracts/view', { filter: { id: 'x' } }), 400, 'exception.validation', 'filter.id');
    });

    it('PATCH /contracts — the user-profile screen moves an organization to another contract; in the action log', async () => {
      const alice = await world.user();
      const target = await aContract(world.server, world.admin, { name: 'Alice moves here' });
      const since = new Date();
      const changed = await api('PATCH', '/contracts', { organizationId: alice.organizationId, contractId: target.id });
      expectStatus(changed, 200);
      expect(changed.body).toMatchObject({ organizationId: alice.organizationId, contract: { id: target.id } });
      const profile = await api('GET', '/profiles/my', undefined, alice.token);
      expect(profile.body.organization.contract_info.id).toBe(target.id);
      expect(await logged('contract_assigned', since)).toEqual([
        {
          user_id: adminId,
          details: expect.objectContaining({
            organizationId: alice.organizationId,
            contractId: target.id,
            previousContractId: expect.any(String),
          }),
        },
      ]);

      // A contract of another organization type is a 400, an unknown one a 404, a missing field a 400: nothing changes.
      const merchants = await aContract(world.server, world.admin, { organizationType: 'merchant' });
      expectError(await api('PATCH', '/contracts', { organizationId: alice.organizationId, contractId: merchants.id }), 400);
      expectError(
        await api('PATCH', '/contracts', { organizationId: alice.organizationId, contractId: '00000000-0000-4000-8000-0000000000ff' }),
        404,
        'exception.contract.not_found',
      );
      expectError(await api('PATCH', '/contracts', { contractId: target.id }), 400, 'exception.validation', 'organizationId');
      const inactive = await aContract(world.server, world.admin, { active: false });
      expectError(
        await api('PATCH', '/contracts', { organizationId: alice.organizationId, contractId: inactive.id }),
        409,
        'exception.contract.inactive',
      );
      expect((await api('GET', '/profiles/my', undefined, alice.token)).body.organization.contract_info.id).toBe(target.id);
      // Only staff with CONTRACT_MANAGER.
      expectError(await api('PATCH', '/contracts', { organizationId: alice.organizationId, contractId: target.id }, alice.token), 403);
    });
  });

  describe('commission profiles', () => {
    it('POST /contracts/{contractId}/commission-profiles — the form’s operationFlowId, issuerId and participant specifications; in the action log', async () => {
      const contract = await aContract(world.server, world.admin);
      const flows = await api('GET', '/operation-flows');
      const transfers = flows.body.records.find((f: any) => f.processType === 'client_transaction_transfer');
      expect(transfers).toMatchObject({ id: 'client_transaction_transfer', isMultiCurrency: false });
      const since = new Date();
      const body = {
        issuerId: world.issuer.id,
        operationFlowId: transfers.id,
        srcParticipantSpecification: { type: 'no', value: null },
        destParticipantSpecification: { type: 'no', value: null },
      };
      const created = await api('POST', `/contracts/${contract.id}/commission-profiles`, body);
      expectStatus(created, 201);
      expect(created.body.profile).toMatchObject({
        flow: {
          id: 'client_transaction_transfer',
          code: 'client_transaction_transfer',
          processType: 'client_transaction_transfer',
          transactionType: 'transfer',
        },
        issuer: { id: world.issuer.id, currency: world.currency.code },
        destinationIssuer: null,
        srcParticipantSpecification: { type: 'no' },
        destParticipantSpecification: { type: 'no' },
      });
      expect(await logged('commission_settings_changed', since)).toEqual([
        {
          user_id: adminId,
          details: expect.objectContaining({ change: 'created', contractId: contract.id, profileId: created.body.profile.id }),
        },
      ]);
      // A second for the flow and issuer is a 409; a narrowed participant, an unknown flow or disagreeing names a 400.
      expectError(await api('POST', `/contracts/${contract.id}/commission-profiles`, body), 409, 'exception.commission.profile_exists');
      const path = `/contracts/${contract.id}/commission-profiles`;
      const refused = [
        [
          { ...body, operationFlowId: 'exchange', srcParticipantSpecification: { type: 'personType', value: 'gold' } },
          'srcParticipantSpecification.type',
        ],
        [{ ...body, operationFlowId: 'teleport' }, 'operationFlowId'],
        [{ ...body, operationFlowId: 'exchange', flow: 'cash_in' }, 'operationFlowId'],
        [{ issuerId: world.issuer.id }, 'flow'],
      ] as const;
      for (const [sent, parameter] of refused) expectError(await api('POST', path, sent), 400, 'exception.validation', parameter);
      expect((await api('GET', path)).body.records).toHaveLength(1);
    });

    it('GET /contracts/{contractId}/commission-profiles — the system-commission screen’s list; reads flow.processType and issuer.currency', async () => {
      const contract = await aContract(world.server, world.admin);
      await aProfile(world.server, world.admin, contract.id, world.issuer.id, 'exchange');
      await aProfile(world.server, world.admin, contract.id, world.issuer.id, 'bank_withdrawal');
      const list = await api('GET', `/contracts/${contract.id}/commission-profiles`);
      expectStatus(list, 200);
      expect(list.body.records.map((p: any) => [p.flow.processType, p.issuer.currency])).toEqual([
        ['bank_redeem', world.currency.code],
        ['exchange_transaction', world.currency.code],
      ]);
      expectError(
        await api('GET', '/contracts/00000000-0000-4000-8000-0000000000ff/commission-profiles'),
        404,
        'exception.contract.not_found',
      );
      expectError(await api('GET', '/contracts/x/commission-profiles'), 400, 'exception.validation');
    });

    it('GET /contracts/{contractId}/commission-profiles/{profileId} — the rules page titles itself with profile.flow.processType', async () => {
      const contract = await aContract(world.server, world.admin);
      const profile = await aProfile(world.server, world.admin, contract.id, world.issuer.id, 'invoice_payment');
      const answer = await api('GET', `/contracts/${contract.id}/commission-profiles/${profile.id}`);
      expectStatus(answer, 200);
      expect(answer.body.profile.flow).toEqual({
        id: 'invoice_payment',
        name: 'invoice_payment',
        description: expect.any(String),
        code: 'merchant_invoice',
        processType: 'merchant_invoice',
        transactionType: 'transfer',
        isMultiCurrency: false,
        srcCoinType: 'client',
        destCoinType: 'client',
      });
    });

    it('POST /contracts/{contractId}/commission-profiles/multi-currency — an exchange profile between two currencies prices those exchanges ahead of the source currency’s', async () => {
      const usd = await aCurrency(world.server, world.admin, { fraction: 100 });
      const usdIssuer = await anIssuer(world.server, world.admin, usd.code, 'Dollar issuer');
      const chf = await aCurrency(world.server, world.admin, { fraction: 100 });
      const chfIssuer = await anIssuer(world.server, world.admin, chf.code, 'Franc issuer');
      await aRate(world.server, world.admin, world.currency.code, usd.code, '1.10');
      await aRate(world.server, world.admin, world.currency.code, chf.code, '0.95');
      const exchangeFlow = (await api('GET', '/operation-flows')).body.records.find((f: any) => f.isMultiCurrency);
      expect(exchangeFlow).toMatchObject({ id: 'exchange', processType: 'exchange_transaction' });

      const contract = await aContract(world.server, world.admin);
      // The form sends the source issuer as sourceIssuerId (its issuerId renamed) and the destination's.
      const body = {
        operationFlowId: exchangeFlow.id,
        sourceIssuerId: world.issuer.id,
        destinationIssuerId: usdIssuer.id,
        srcParticipantSpecification: { type: 'no', value: null },
        destParticipantSpecification: { type: 'no', value: null },
      };
      const created = await api('POST', `/contracts/${contract.id}/commission-profiles/multi-currency`, body);
      expectStatus(created, 201);
      expect(created.body.profile).toMatchObject({
        flow: { processType: 'exchange_transaction' },
        issuer: { id: world.issuer.id, currency: world.currency.code },
        destinationIssuer: { id: usdIssuer.id, currency: usd.code },
      });
      // 2 % to dollars; 1 % to any other currency (the source currency's profile).
      const toUsd = created.body.profile;
      await aRule(world.server, world.admin, contract.id, toUsd.id, {
        conditions: [{ commission: { type: 'percent', valuePercent: '2' } }],
      });
      const anyCurrency = await aProfile(world.server, world.admin, contract.id, world.issuer.id, 'exchange');
      await aRule(world.server, world.admin, contract.id, anyCurrency.id, {
        conditions: [{ commission: { type: 'percent', valuePercent: '1' } }],
      });
      const alice = await world.user();
      await assignContract(world.server, world.admin, alice.organizationId, contract.id);
      const from = await world.coin(alice, '100.00');
      const dollars = await aCoin(world.server, alice.token, usdIssuer.id);
      const francs = await aCoin(world.server, alice.token, chfIssuer.id);
      const fee = async (to: string) =>
        (await api('POST', '/exchange/calculate', { fromCoin: from.serial, toCoin: to, amount: '50.00', direction: 'sell' }, alice.token))
          .body.commission;
      expect(await fee(dollars.serial)).toBe('1.00');
      expect(await fee(francs.serial)).toBe('0.50');

      // The list shows both currencies of it; one per pair of issuers; a flow of one currency, the same issuer twice or an unknown one refused.
      const list = await api('GET', `/contracts/${contract.id}/commission-profiles`);
      expect(list.body.records.map((p: any) => p.destinationIssuer?.currency ?? null)).toEqual([null, usd.code]);
      const path = `/contracts/${contract.id}/commission-profiles/multi-currency`;
      expectError(await api('POST', path, body), 409, 'exception.commission.profile_exists');
      expectError(await api('POST', path, { ...body, operationFlowId: 'cash_in' }), 400, 'exception.validation', 'operationFlowId');
      expectError(
        await api('POST', path, { ...body, destinationIssuerId: world.issuer.id }),
        400,
        'exception.validation',
        'destinationIssuerId',
      );
      expectError(
        await api('POST', path, { ...body, destinationIssuerId: '00000000-0000-4000-8000-0000000000ff' }),
        404,
        'exception.issuer.not_found',
      );
      // A copy of the contract keeps it.
      const copy = await api('POST', `/contracts/${contract.id}/copy`, { name: 'Copy with multi-currency' });
      const copied = await api('GET', `/contracts/${copy.body.contract.id}/commission-profiles`);
      expect(copied.body.records.map((p: any) => p.destinationIssuer?.id ?? null)).toEqual([null, usdIssuer.id]);
    });
  });

  describe('commission rules and conditions', () => {
    const profileFor = async () => {
      const contract = await aContract(world.server, world.admin);
      const profile = await aProfile(world.server, world.admin, contract.id, world.issuer.id);
      return { contract: contract.id, profile: profile.id, rules: rulesOf(contract.id, profile.id) };
    };

    it('POST /contracts/{contractId}/commission-profiles/{profileId}/commission-rule — the rule form’s dates, direction and status; in the action log', async () => {
      const { contract, profile, rules } = await profileFor();
      const since = new Date();
      const created = await api('POST', rules, { ...rulePeriod, direction: 'SHARED', active: true });
      expectStatus(created, 201);
      expect(created.body.rule).toMatchObject({
        ...rulePeriod,
        beginDate: '2020-01-01T00:00:00.000Z',
        feeDirection: 'SHARED',
        payer: 'shared',
        active: true,
      });
      expect(await logged('commission_settings_changed', since)).toEqual([
        {
          user_id: adminId,
          details: expect.objectContaining({ change: 'created', contractId: contract, profileId: profile, ruleId: created.body.rule.id }),
        },
      ]);
      const next = await api('POST', rules, {
        beginDate: '2100-01-01T00:00:00.000Z',
        endDate: '2101-01-01T00:00:00.000Z',
        direction: 'IN',
        active: true,
      });
      expect(next.body.rule).toMatchObject({ feeDirection: 'IN', payer: 'recipient' });
      // An unknown direction, one disagreeing with payer, or neither is a 400; nothing is created.
      const later = { beginDate: '2200-01-01T00:00:00.000Z', endDate: '2201-01-01T00:00:00.000Z', active: true };
      expectError(await api('POST', rules, { ...later, direction: 'UP' }), 400, 'exception.validation', 'direction');
      expectError(await api('POST', rules, { ...later, direction: 'OUT', payer: 'recipient' }), 400, 'exception.validation', 'direction');
      expectError(await api('POST', rules, later), 400, 'exception.validation', 'payer');
      const all = await api('POST', `${rules}/view`, { filterCriteria: 'FROM_DATE', date: '2000-01-01T00:00:00Z' });
      expect(all.body.totalRecords).toBe(2);
    });

    it('POST /contracts/{contractId}/commission-profiles/{profileId}/commission-rule/view — the rules page’s FROM_DATE; reads feeDirection and conditions[].value', async () => {
      const { contract, profile, rules } = await profileFor();
      await aRule(world.server, world.admin, contract, profile, {
        beginDate: '2090-01-01T00:00:00Z',
        payer: 'sender',
        conditions: [{ beginAmount: '0', endAmount: '100', commission: { type: 'fixed', valueFixed: '0.50' } }],
      });
      const view = await api('POST', `${rules}/view`, { date: new Date().toISOString(), filterCriteria: 'FROM_DATE' });
      expectStatus(view, 200);
      expect(view.body.records).toEqual([
        expect.objectContaining({
          beginDate: '2090-01-01T00:00:00.000Z',
          endDate: null,
          feeDirection: 'OUT',
          active: true,
          conditions: [
            expect.objectContaining({
              id: expect.any(String),
              beginAmount: '0.00',
              endAmount: '100.00',
              value: expect.objectContaining({ type: 'fixed', valueFixed: '0.50', valuePercent: null }),
            }),
          ],
        }),
      ]);
      const byDirection = await api('POST', `${rules}/view`, {
        filterCriteria: 'FROM_DATE',
        date: '2000-01-01T00:00:00Z',
        filter: { direction: 'IN' },
      });
      expect(byDirection.body.records).toEqual([]);
    });

    it('PATCH /contracts/{contractId}/commission-profiles/{profileId}/commission-rule/{ruleId} — the edit form sends back dates, direction and status', async () => {
      const { contract, profile, rules } = await profileFor();
      const rule = await aRule(world.server, world.admin, contract, profile, { ...rulePeriod, payer: 'sender' });
      const since = new Date();
      const patched = await api('PATCH', `${rules}/${rule.id}`, { ...rulePeriod, direction: 'IN', active: false });
      expectStatus(patched, 200);
      expect(patched.body.rule).toMatchObject({ feeDirection: 'IN', payer: 'recipient', active: false });
      expect(await logged('commission_settings_changed', since)).toEqual([
        {
          user_id: adminId,
          details: expect.objectContaining({ change: 'changed', ruleId: rule.id, fields: ['active', 'beginDate', 'direction', 'endDate'] }),
        },
      ]);
      expectError(await api('PATCH', `${rules}/${rule.id}`, { direction: 'SIDEWAYS' }), 400, 'exception.validation', 'direction');
      expect((await api('GET', `${rules}/${rule.id}`)).body.rule.feeDirection).toBe('IN');
    });

    it('DELETE /contracts/{contractId}/commission-profiles/{profileId}/commission-rule/{ruleId} — the edit form’s delete; in the action log', async () => {
      const { contract, profile, rules } = await profileFor();
      const rule = await aRule(world.server, world.admin, contract, profile, rulePeriod);
      const since = new Date();
      expectStatus(await api('DELETE', `${rules}/${rule.id}`), 200);
      expectError(await api('GET', `${rules}/${rule.id}`), 404, 'exception.commission.rule_not_found');
      expect(await logged('commission_settings_changed', since)).toEqual([
        { user_id: adminId, details: expect.objectContaining({ change: 'deleted', ruleId: rule.id }) },
      ]);
    });

    it('POST /contracts/{contractId}/commission-profiles/{profileId}/commission-rule/{ruleId}/condition — a new row of the conditions table; in the action log', async () => {
      const { contract, profile, rules } = await profileFor();
      const rule = await aRule(world.server, world.admin, contract, profile, rulePeriod);
      const since = new Date();
      // The table sends numbers, and nulls for the values a type does not use.
      const added = await api('POST', `${rules}/${rule.id}/condition`, {
        beginAmount: 0,
        endAmount: 1000,
        commission: { type: 'percent', valuePercent: 1.5, valueFixed: null },
      });
      expectStatus(added, 201);
      const [condition] = added.body.rule.conditions;
      expect(condition).toMatchObject({
        beginAmount: '0.00',
        endAmount: '1000.00',
        value: { type: 'percent', valuePercent: '1.5', valueFixed: null },
      });
      expect(await logged('commission_settings_changed', since)).toEqual([
        { user_id: adminId, details: expect.objectContaining({ change: 'created', ruleId: rule.id, conditionId: condition.id }) },
      ]);
      // An overlapping range is a 409, a negative value a 400: the rule keeps one condition.
      expectError(
        await api('POST', `${rules}/${rule.id}/condition`, {
          beginAmount: 500,
          endAmount: 2000,
          commission: { type: 'zero', valuePercent: null, valueFixed: null },
        }),
        409,
        'exception.commission.condition_overlap',
      );
      expectError(
        await api('POST', `${rules}/${rule.id}/condition`, {
          beginAmount: 1000,
          endAmount: 2000,
          commission: { type: 'fixed', valueFixed: -1, valuePercent: null },
        }),
        400,
        'exception.validation',
        'commission.valueFixed',
      );
      expect((await api('GET', `${rules}/${rule.id}`)).body.rule.conditions).toHaveLength(1);
      expectError(
        await api('POST', `${rules}/00000000-0000-4000-8000-0000000000ff/condition`, { beginAmount: 0, commission: { type: 'zero' } }),
        404,
        'exception.commission.rule_not_found',
      );
    });

    it('PUT /contracts/{contractId}/commission-profiles/{profileId}/commission-rule/{ruleId}/condition/{conditionId} — a saved row of the table, changed', async () => {
      const { contract, profile, rules } = await profileFor();
      const rule = await aRule(world.server, world.admin, contract, profile, {
        ...rulePeriod,
        conditions: [
          { beginAmount: '0', endAmount: '100', commission: { type: 'fixed', valueFixed: '1' } },
          { beginAmount: '100', endAmount: null, commission: { type: 'percent', valuePercent: '1' } },
        ],
      });
      const [first, second] = rule.conditions;
      const since = new Date();
      const put = await api('PUT', `${rules}/${rule.id}/condition/${first.id}`, {
        beginAmount: 0,
        endAmount: 50,
        commission: { type: 'greater_of_fixed_or_percent', valuePercent: 2, valueFixed: 0.25 },
      });
      expectStatus(put, 200);
      expect(put.body.rule.conditions).toEqual([
        expect.objectContaining({
          id: first.id,
          beginAmount: '0.00',
          endAmount: '50.00',
          value: expect.objectContaining({ type: 'greater_of_fixed_or_percent', valuePercent: 2, valueFixed: '0.25' }),
        }),
        expect.objectContaining({ id: second.id }),
      ]);
      expect(await logged('commission_settings_changed', since)).toEqual([
        { user_id: adminId, details: expect.objectContaining({ change: 'changed', ruleId: rule.id, conditionId: first.id }) },
      ]);
      // Meeting the other row is a 409; an unknown condition a 404; nothing changes.
      expectError(
        await api('PUT', `${rules}/${rule.id}/condition/${first.id}`, { beginAmount: 0, endAmount: 150, commission: { type: 'zero' } }),
        409,
        'exception.commission.condition_overlap',
      );
      expectError(
        await api('PUT', `${rules}/${rule.id}/condition/00000000-0000-4000-8000-0000000000ff`, {
          beginAmount: 0,
          endAmount: 10,
          commission: { type: 'zero' },
        }),
        404,
        'exception.commission.condition_not_found',
      );
      expect((await api('GET', `${rules}/${rule.id}`)).body.rule.conditions.map((c: any) => c.endAmount)).toEqual(['50.00', null]);
    });

    it('DELETE /contracts/{contractId}/commission-profiles/{profileId}/commission-rule/{ruleId}/condition/{conditionId} — a row of the table removed', async () => {
      const { contract, profile, rules } = await profileFor();
      const rule = await aRule(world.server, world.admin, contract, profile, {
        ...rulePeriod,
        conditions: [{ beginAmount: '0', commission: { type: 'fixed', valueFixed: '1' } }],
      });
      const since = new Date();
      const removed = await api('DELETE', `${rules}/${rule.id}/condition/${rule.conditions[0].id}`);
      expectStatus(removed, 200);
      expect(removed.body.rule.conditions).toEqual([]);
      expect(await logged('commission_settings_changed', since)).toEqual([
        { user_id: adminId, details: expect.objectContaining({ change: 'deleted', conditionId: rule.conditions[0].id }) },
      ]);
      expectError(
        await api('DELETE', `${rules}/${rule.id}/condition/${rule.conditions[0].id}`),
        404,
        'exception.commission.condition_not_found',
      );
    });

    it('a SHARED rule splits the fee exactly: the sender pays half rounded up to the cent on top, the recipient the rest', async () => {
      const { contract, rules } = await profileFor();
      const created = await api('POST', rules, { ...rulePeriod, direction: 'SHARED', active: true });
      await api('POST', `${rules}/${created.body.rule.id}/condition`, { beginAmount: 0, commission: { type: 'fixed', valueFixed: 0.03 } });
      const [alice, bob] = [await world.user(), await world.user()];
      await assignContract(world.server, world.admin, alice.organizationId, contract);
      const [from, to] = await world.pair(alice, bob, '100.00');
      const sent = await transfer(world.server, alice.token, from.serial, to.serial, '10.00', { key: `shared-${from.serial}` });
      expectStatus(sent, 201);
      expect(sent.body.process.commission).toBe('0.03');
      expect(await balanceOf(world.server, alice.token, from.serial)).toBe('89.98');
      expect(await balanceOf(world.server, bob.token, to.serial)).toBe('9.99');
    });
  });
});
