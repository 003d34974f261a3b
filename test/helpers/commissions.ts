import type { TestServer } from './server';

/** The default contracts the migration seeds, one per organization type. */
export const DEFAULT_CONTRACTS = {
  individual: '00000000-0000-4000-8000-000000000101',
  merchant: '00000000-0000-4000-8000-000000000102',
  support: '00000000-0000-4000-8000-000000000103',
  cash_desk: '00000000-0000-4000-8000-000000000104',
  system: '00000000-0000-4000-8000-000000000105',
} as const;

export interface CommissionValueBody {
  type: string;
  valuePercent?: string | number | null;
  valueFixed?: string | number | null;
  rounding?: 'half_up' | 'up';
  minFee?: string | number | null;
}

export interface ConditionBody {
  beginAmount?: string | number;
  endAmount?: string | number | null;
  commission: CommissionValueBody;
}

async function expect2xx(what: string, response: { status: number; text: string; body: any }): Promise<any> {
  if (response.status < 200 || response.status > 299) throw new Error(`${what} failed: ${response.status} ${response.text}`);
  return response.body;
}

/** Creates a contract (individual, not global, unless said otherwise) and answers it. */
export async function aContract(server: TestServer, admin: string, body: Record<string, unknown> = {}): Promise<any> {
  const response = await server.request('POST', '/api/v1/contracts', {
    token: admin,
    body: { name: `Contract ${Math.random().toString(36).slice(2, 8)}`, organizationType: 'individual', ...body },
  });
  return (await expect2xx('creating a contract', response)).contract;
}

export async function aProfile(
  server: TestServer,
  admin: string,
  contractId: string,
  issuerId: string,
  flow = 'client_transaction_transfer',
) {
  const response = await server.request('POST', `/api/v1/contracts/${contractId}/commission-profiles`, {
    token: admin,
    body: { flow, issuerId },
  });
  return (await expect2xx('creating a commission profile', response)).profile;
}

export async function aRule(
  server: TestServer,
  admin: string,
  contractId: string,
  profileId: string,
  body: { payer?: string; beginDate?: string; endDate?: string | null; active?: boolean; conditions?: ConditionBody[] } = {},
) {
  const response = await server.request('POST', `/api/v1/contracts/${contractId}/commission-profiles/${profileId}/commission-rule`, {
    token: admin,
    body: { beginDate: '2020-01-01T00:00:00Z', payer: 'sender', ...body },
  });
  return (await expect2xx('creating a commission rule', response)).rule;
}

export async function assignContract(server: TestServer, admin: string, organizationId: string, contractId: string) {
  const response = await server.request('PUT', `/api/v1/organizations/${organizationId}/contract`, { token: admin, body: { contractId } });
  return expect2xx('assigning a contract', response);
}

/**
 * Gives `organizationId` a contract of its own whose profile for `flow` and `issuerId` has one
 * active rule (since 2020) with these conditions; answers the contract, profile and rule.
 */
export async function aFee(
  server: TestServer,
  admin: string,
  options: {
    organizationId: string;
    issuerId: string;
    conditions: ConditionBody[];
    payer?: 'sender' | 'recipient';
    flow?: string;
    organizationType?: string;
  },
): Promise<{ contract: any; profile: any; rule: any }> {
  const contract = await aContract(server, admin, { organizationType: options.organizationType ?? 'individual' });
  const profile = await aProfile(server, admin, contract.id, options.issuerId, options.flow);
  const rule = await aRule(server, admin, contract.id, profile.id, { payer: options.payer ?? 'sender', conditions: options.conditions });
  await assignContract(server, admin, options.organizationId, contract.id);
  return { contract, profile, rule };
}

/** A percent fee for every amount. */
export const percent = (valuePercent: string): ConditionBody[] => [{ beginAmount: '0', commission: { type: 'percent', valuePercent } }];

/** Adds an active limit profile (`qualifier`, `timeUnit`, `value`) to a commission profile; answers it. */
export async function aLimit(
  server: TestServer,
  admin: string,
  contractId: string,
  profileId: string,
  qualifier: 'amount' | 'quantity',
  timeUnit: string,
  value: string | number,
): Promise<any> {
  const response = await server.request('POST', `/api/v1/contracts/${contractId}/commission-profiles/${profileId}/limit-profiles`, {
    token: admin,
    body: { qualifier, timeUnit, value, active: true },
  });
  return (await expect2xx('creating a limit profile', response)).limitProfile;
}

/**
 * Gives `organizationId` a contract of its own whose profile for `flow` and `issuerId` carries these limits (no rule:
 * the flow is free); answers the contract, the profile and the limits.
 */
export async function limitsOn(
  server: TestServer,
  admin: string,
  options: {
    organizationId: string;
    issuerId: string;
    flow: string;
    limits: [qualifier: 'amount' | 'quantity', timeUnit: string, value: string | number][];
  },
): Promise<{ contract: any; profile: any; limits: any[] }> {
  const contract = await aContract(server, admin);
  const profile = await aProfile(server, admin, contract.id, options.issuerId, options.flow);
  const limits = [];
  for (const [qualifier, timeUnit, value] of options.limits)
    limits.push(await aLimit(server, admin, contract.id, profile.id, qualifier, timeUnit, value));
  await assignContract(server, admin, options.organizationId, contract.id);
  return { contract, profile, limits };
}

/**
 * What the kernel counts for an organization: each limit's running sum per period (`limit_usage`), in limit and period
 * order, its amount without trailing zeros (`45`, `10.5`).
 */
export async function usageOf(
  db: { query: (text: string, values?: unknown[]) => Promise<{ rows: any[] }> },
  organizationId: string,
): Promise<{ limitProfileId: string; periodStart: string; amount: string; count: number }[]> {
  const { rows } = await db.query(
    `SELECT limit_profile_id::text AS "limitProfileId", period_start::text AS "periodStart", trim_scale(amount)::text AS amount, count
       FROM limit_usage WHERE organization_id = $1 ORDER BY limit_profile_id, period_start`,
    [organizationId],
  );
  return rows;
}
