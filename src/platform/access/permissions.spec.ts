import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GRANTS, Permission, PERMISSIONS, permissionsBeyond, Role, ROLES } from './permissions';

type Table = Record<string, { allows: string; roles: string[] }>;

/** The role table of docs/roles-and-permissions.md: per permission, what it allows and the roles ticked. */
function documentedTable(): Table {
  const text = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'roles-and-permissions.md'), 'utf8');
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| permission | what it allows |'));
  if (start < 0) return {};
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
  const roles = cells(lines[start]).slice(2);
  const table: Table = {};
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [permission, allows, ...ticks] = cells(line);
    table[permission.replace(/`/g, '')] = { allows, roles: roles.filter((_, i) => ticks[i] === '✓').sort() };
  }
  return table;
}

/** The same table from the grants in code. */
function codeTable(): Table {
  return Object.fromEntries(
    (Object.keys(PERMISSIONS) as Permission[]).map((p) => [
      p,
      { allows: PERMISSIONS[p], roles: ROLES.filter((r: Role) => GRANTS[r].includes(p)).sort() },
    ]),
  );
}

describe('grants in code', () => {
  it('grants only catalogued permissions, each to at least one role', () => {
    const granted = new Set(Object.values(GRANTS).flat());
    expect([...granted].filter((p) => !(p in PERMISSIONS))).toEqual([]);
    expect(Object.keys(PERMISSIONS).filter((p) => !granted.has(p as Permission))).toEqual([]);
    expect(Object.keys(GRANTS).sort()).toEqual([...ROLES].sort());
  });

  it('are what the role table of docs/roles-and-permissions.md says', () => {
    expect(documentedTable()).toEqual(codeTable());
  });
});

describe('who outranks whom (releases, ending sessions)', () => {
  const holding = (role: Role) => new Set<Permission>(GRANTS[role]);

  it('gives USER_RELEASER and USER_SESSION_REVOKER to administrators only (specification section 5)', () => {
    expect(ROLES.filter((r) => GRANTS[r].includes('USER_RELEASER'))).toEqual(['administrator']);
    expect(ROLES.filter((r) => GRANTS[r].includes('USER_SESSION_REVOKER'))).toEqual(['administrator']);
  });

  it('lets an administrator act on every role, customers included', () => {
    for (const role of ROLES) expect({ role, beyond: permissionsBeyond(holding('administrator'), [role]) }).toEqual({ role, beyond: [] });
  });

  it('names what a staff member lacks to act on an administrator, whatever they were granted to release', () => {
    // Even holding USER_RELEASER, customer support could not take over an administrator's account.
    const support = new Set<Permission>([...GRANTS.customer_support, 'USER_RELEASER']);
    expect(permissionsBeyond(support, ['administrator'])).toEqual(
      expect.arrayContaining(['BANK_TOP_UP_MANAGER', 'USER_MANAGER', 'USER_SESSION_REVOKER']),
    );
    expect(permissionsBeyond(support, ['administrator'])).not.toContain('USER_RELEASER');
    expect(permissionsBeyond(support, ['cfo'])).toEqual([
      'CASH_DESK_MANAGER',
      'COMMISSION_MANAGER',
      'COMMISSION_VIEWER',
      'CONTRACT_MANAGER',
      'CONTRACT_VIEWER',
      'CURRENCY_MANAGER',
      'EXCHANGE_RATE_MANAGER',
      'EXCHANGE_RESERVE_MANAGER',
      'GATE_PROVIDER_MANAGER',
      'ISSUER_MANAGER',
      'LEDGER_AUDITOR',
      'LIMIT_PROFILE_MANAGER',
      'LIMIT_PROFILE_VIEWER',
      'SYSTEM_OPERATION_CREATOR',
      'TRANSACTION_REVERSER',
      'VOUCHER_MANAGER',
    ]);
    // Compliance decides identification and bank accounts (issue 32) and checks the action log (issue 16): support may not act on them.
    expect(permissionsBeyond(support, ['individual', 'compliance_specialist'])).toEqual([
      'AUDIT_CHECKER',
      'BANK_ACCOUNT_APPROVER',
      'IDENTIFICATION_MANAGER',
    ]);
    expect(permissionsBeyond(support, ['individual', 'antifraud_specialist'])).toEqual([]);
  });

  it('gives the contract and commission permissions to administrators and the cfo, the viewers to accountants too (issue 11)', () => {
    const holders = (p: Permission) => ROLES.filter((r) => GRANTS[r].includes(p)).sort();
    for (const p of ['CONTRACT_MANAGER', 'COMMISSION_MANAGER', 'LIMIT_PROFILE_MANAGER'] as const) {
      expect(holders(p)).toEqual(['administrator', 'cfo']);
    }
    // The compliance manager reads them too: the family's contracts screen is theirs (issue 45).
    for (const p of ['CONTRACT_VIEWER', 'COMMISSION_VIEWER', 'LIMIT_PROFILE_VIEWER'] as const) {
      expect(holders(p)).toEqual(['accountant', 'administrator', 'cfo', 'compliance_manager']);
    }
  });

  it('counts every role of an account with several memberships', () => {
    expect(permissionsBeyond(holding('cfo'), ['individual', 'accountant'])).toEqual([
      'BANK_CATALOG_MANAGER',
      'BANK_TOP_UP_MANAGER',
      'BANK_WITHDRAWAL_MANAGER',
      'CASH_DESK_OPERATOR',
      'CASH_DESK_SUPERVISOR',
    ]);
  });

  it('gives the money desk (bank decisions, cash desks everywhere) to administrators and accountants, cash desk creation to the cfo too (issue 12)', () => {
    const holders = (p: Permission) => ROLES.filter((r) => GRANTS[r].includes(p)).sort();
    for (const p of ['BANK_WITHDRAWAL_MANAGER', 'BANK_CATALOG_MANAGER', 'CASH_DESK_SUPERVISOR'] as const) {
      expect(holders(p)).toEqual(['accountant', 'administrator']);
    }
    expect(holders('CASH_DESK_OPERATOR')).toEqual(['accountant', 'administrator', 'cashier']);
    expect(holders('CASH_DESK_MANAGER')).toEqual(['administrator', 'cfo']);
    expect(holders('CASH_DESK_CONFIRMER')).toEqual(['individual', 'merchant']);
    expect(holders('BANK_ACCOUNT_OWNER')).toEqual(['individual', 'merchant']);
  });
});
