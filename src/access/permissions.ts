/**
 * The permission catalogue: every permission a route can require, with what it allows.
 * The same names are seeded into the `permissions` table by migrations, with each role's grants.
 */
export const PERMISSIONS = {
  USER_VIEWER: 'See users, their memberships and states',
  USER_MANAGER: 'Create users and memberships',
  USER_RELEASER: 'Release users On Hold with a temporary password',
  USER_ACTION_VIEWER: 'See the recorded actions of users (logins, holds, releases)',
  LEDGER_AUDITOR: 'Recompute and check the ledger',
  CURRENCY_VIEWER: 'See currencies',
  CURRENCY_MANAGER: 'Create and change currencies',
  ISSUER_VIEWER: 'See currency issuers',
  ISSUER_MANAGER: 'Create and change currency issuers',
  COIN_OWNER: "Open, see and rename the organization's own coins",
  COIN_VIEWER: 'See every coin',
  COIN_MAIN_STATUS_SETTER: 'Choose the main coin of a currency',
  COIN_CLOSURE: "Close the organization's own coins",
  TRANSFER_CREATOR: "Transfer money from the organization's own coins",
  TRANSACTION_VIEWER: "See operations that touch the organization's own coins",
  TRANSACTION_AUDITOR: 'See every operation',
  TRANSACTION_REVERSER: 'Reverse a completed operation',
  BANK_TOP_UP_MANAGER: 'Credit coins from bank settlement (bank top-ups)',
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const ROLES = [
  'administrator',
  'cfo',
  'individual',
  'merchant',
  'compliance_manager',
  'compliance_specialist',
  'customer_support',
  'antifraud_specialist',
  'accountant',
  'cashier',
] as const;
export type Role = (typeof ROLES)[number];

/** Roles of the operator's own staff; customers are `individual` and `merchant`. */
export const STAFF_ROLES: readonly Role[] = ROLES.filter((r) => r !== 'individual' && r !== 'merchant');

export const ORGANIZATION_TYPES = ['individual', 'merchant', 'support', 'cash_desk', 'system'] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];
export const IDENTIFICATION_STATUSES = ['none', 'pending', 'approved', 'declined', 'review_required', 'not_available'] as const;
export const PERSON_TYPES = ['base', 'standard', 'gold', 'vip'] as const;
