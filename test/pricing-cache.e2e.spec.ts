import type { Actor } from './helpers/actors';
import { adminToken, aUser } from './helpers/actors';
import { aContract, aProfile, aRule, assignContract, percent } from './helpers/commissions';
import type { CoinBody, IssuerBody } from './helpers/money';
import { aCoin, aCurrency, anIssuer, expectError, expectStatus, fund, recording, transfer, twoInstances } from './helpers/money';
import { dbCalls, HEARD_WITHIN_MS, TestServer, within } from './helpers/server';

/**
 * Statements `POST /transfers/calculate` runs besides pricing: reading the two coins and, since it names the payee
 * (issue 45), the payee's name and the payee lookup's check — one statement (was this payee looked up by the caller
 * within the hour, on this instance? then it is not counted again), three the first time (with the caller's count and
 * the address's). The token is cached. Pricing runs none once the coins, the contract and its profiles are known
 * (PricingCache), one after a change.
 */
const READ_CALLS = 3;
const FIRST_LOOKUP = 2;

/**
 * The terms a flow is priced by are kept in memory (src/platform/commissions/pricing-cache.ts): every change to a
 * rule, its conditions, a profile, a limit or an organization's contract takes effect on the very next transfer, on
 * the instance that made it and, by NOTIFY, on another one over the same database.
 */
describe('the pricing cache', () => {
  const servers = twoInstances();
  let a: ReturnType<typeof recording>;
  let b: ReturnType<typeof recording>;
  let admin: string;
  let issuer: IssuerBody;

  beforeAll(async () => {
    ({ a, b } = servers);
    admin = await adminToken(a);
    const currency = await aCurrency(a, admin);
    issuer = await anIssuer(a, admin, currency.code);
  });

  const rules = (contractId: string, profileId: string) =>
    `/api/v1/contracts/${contractId}/commission-profiles/${profileId}/commission-rule`;

  /** A payer on a contract of its own charging 1 % on transfers, with a funded coin, and a payee coin. */
  const priced = async () => {
    const payer = await aUser(a, admin);
    const payee = await aUser(a, admin);
    const contract = await aContract(a, admin);
    const profile = await aProfile(a, admin, contract.id, issuer.id);
    const rule = await aRule(a, admin, contract.id, profile.id, { conditions: percent('1') });
    await assignContract(a, admin, payer.organizationId, contract.id);
    const from = await aCoin(a, payer.token, issuer.id);
    await fund(a, admin, from.serial, '1000.00');
    const to = await aCoin(a, payee.token, issuer.id);
    return { payer, contract, profile, rule, from, to };
  };

  const calculate = (server: TestServer, payer: Actor, from: CoinBody, to: CoinBody, amount = '100.00') =>
    server.request('POST', '/api/v1/transfers/calculate', {
      token: payer.token,
      body: { paymentTool: { type: 'COIN', srcValue: from.serial, destValue: to.serial }, amount },
    });

  /** The fee of a transfer of 100.00 posted on `server`. */
  const feeOf = async (server: TestServer, payer: Actor, from: CoinBody, to: CoinBody): Promise<string> => {
    const response = await transfer(server, payer.token, from.serial, to.serial, '100.00');
    expectStatus(response, 201);
    return response.body.process.commission;
  };

  it('prices a transfer between coins already seen without a statement, and reads the terms again after a change', async () => {
    const { payer, contract, profile, rule, from, to } = await priced();
    await calculate(a, payer, from, to);
    const warm = await calculate(a, payer, from, to);
    expectStatus(warm, 200);
    expect(warm.body.commission).toBe('1.00');
    expect(dbCalls(warm.headers.get('server-timing'))).toBe(READ_CALLS);

    const conditionId = (await a.request('GET', `${rules(contract.id, profile.id)}/${rule.id}`, { token: admin })).body.rule.conditions[0]
      .id;
    const changed = await a.request('PUT', `${rules(contract.id, profile.id)}/${rule.id}/condition/${conditionId}`, {
      token: admin,
      body: { beginAmount: '0', commission: { type: 'percent', valuePercent: '2' } },
    });
    expectStatus(changed, 200);
    const after = await calculate(a, payer, from, to);
    expect(after.body.commission).toBe('2.00');
    expect(dbCalls(after.headers.get('server-timing'))).toBe(READ_CALLS + 1);
    expect(dbCalls((await calculate(a, payer, from, to)).headers.get('server-timing'))).toBe(READ_CALLS);
  });

  it('takes a rule changed, ended, deactivated or created, a limit added and a new contract on the very next transfer', async () => {
    const { payer, contract, profile, rule, from, to } = await priced();
    const base = rules(contract.id, profile.id);
    expect(await feeOf(a, payer, from, to)).toBe('1.00');

    const conditionId = (await a.request('GET', `${base}/${rule.id}`, { token: admin })).body.rule.conditions[0].id;
    expectStatus(
      await a.request('PUT', `${base}/${rule.id}/condition/${conditionId}`, {
        token: admin,
        body: { beginAmount: '0', commission: { type: 'fixed', valueFixed: '3' } },
      }),
      200,
    );
    expect(await feeOf(a, payer, from, to)).toBe('3.00');

    // Ended a moment ago: no rule in force.
    expectStatus(await a.request('PATCH', `${base}/${rule.id}`, { token: admin, body: { endDate: new Date().toISOString() } }), 200);
    expect(await feeOf(a, payer, from, to)).toBe('0.00');

    const next = await aRule(a, admin, contract.id, profile.id, { beginDate: new Date().toISOString(), conditions: percent('4') });
    expect(await feeOf(a, payer, from, to)).toBe('4.00');

    expectStatus(await a.request('PATCH', `${base}/${next.id}`, { token: admin, body: { active: false } }), 200);
    expect(await feeOf(a, payer, from, to)).toBe('0.00');

    const limit = await a.request('POST', `/api/v1/contracts/${contract.id}/commission-profiles/${profile.id}/limit-profiles`, {
      token: admin,
      body: { qualifier: 'amount', timeUnit: 'per_transaction', value: '50', active: true },
    });
    expectStatus(limit, 201);
    expectError(await transfer(a, payer.token, from.serial, to.serial, '100.00'), 409, 'exception.limit.exceeded');

    const other = await aContract(a, admin);
    const otherProfile = await aProfile(a, admin, other.id, issuer.id);
    await aRule(a, admin, other.id, otherProfile.id, { conditions: percent('5') });
    await assignContract(a, admin, payer.organizationId, other.id);
    expect(await feeOf(a, payer, from, to)).toBe('5.00');
  });

  it('prices a change made on another instance, or straight in the database, as soon as the database announces it', async () => {
    const { payer, contract, profile, rule, from, to } = await priced();
    const base = rules(contract.id, profile.id);
    expect(await feeOf(b, payer, from, to)).toBe('1.00');
    // The payee's first lookup on this instance: counted.
    expect(dbCalls((await calculate(b, payer, from, to)).headers.get('server-timing'))).toBe(READ_CALLS + FIRST_LOOKUP);

    const conditionId = (await a.request('GET', `${base}/${rule.id}`, { token: admin })).body.rule.conditions[0].id;
    expectStatus(
      await a.request('PUT', `${base}/${rule.id}/condition/${conditionId}`, {
        token: admin,
        body: { beginAmount: '0', commission: { type: 'percent', valuePercent: '2' } },
      }),
      200,
    );
    // B hears it by NOTIFY, in milliseconds: until then it would price by what it kept, for good (the cache has no
    // expiry), so the test waits for it rather than timing it (a loaded machine may take a while).
    const heard = await within(HEARD_WITHIN_MS, async () => (await calculate(b, payer, from, to)).body.commission === '2.00');
    expect(heard).toBeLessThan(HEARD_WITHIN_MS);
    expect(await feeOf(b, payer, from, to)).toBe('2.00');

    // Neither instance sees this statement: only the trigger's NOTIFY tells them.
    await a.db.query(`UPDATE commission_rules SET active = false WHERE id = $1`, [rule.id]);
    for (const server of [a, b]) {
      expect(await within(HEARD_WITHIN_MS, async () => (await calculate(server, payer, from, to)).body.commission === '0.00')).toBeLessThan(
        HEARD_WITHIN_MS,
      );
    }

    const other = await aContract(a, admin);
    const otherProfile = await aProfile(a, admin, other.id, issuer.id);
    await aRule(a, admin, other.id, otherProfile.id, { conditions: percent('5') });
    await assignContract(a, admin, payer.organizationId, other.id);
    expect(await within(HEARD_WITHIN_MS, async () => (await calculate(b, payer, from, to)).body.commission === '5.00')).toBeLessThan(
      HEARD_WITHIN_MS,
    );
    expect(await feeOf(b, payer, from, to)).toBe('5.00');
  });
});
