/**
 * The permission catalogue: every permission a route can require, with what it allows, and below
 * it each role's grants. This file is the only place either is written: the guard, the login's
 * `permissions[]`, the actuator's api-list and the role table of docs/roles-and-permissions.md (checked by a test) all
 * read it. Adding a permission is one line here and one in each granting role.
 */
export const PERMISSIONS = {
  USER_VIEWER: 'See users, their memberships and states',
  USER_MANAGER: 'Create users and memberships; activate and deactivate (delete) users',
  USER_RELEASER: 'Release users On Hold (or whose temporary password ran out) with a temporary password',
  USER_SESSION_REVOKER: "End all of a user's sessions",
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
  COIN_REPORT_VIEWER: "See reports on the organization's own coins: totals per currency, funds flows, daily outflows",
  TRANSACTION_CATEGORY_OWNER: "Keep one's own transaction categories and tag the organization's operations with them",
  TRANSFER_TEMPLATE_OWNER: "Keep one's own transfer templates from the organization's coins",
  SUBSCRIPTION_OWNER: "Keep one's own subscriptions: transfer templates paid on a schedule",
  SCHEDULER_OPERATOR: "Run the scheduler's due work (subscriptions) now",
  CONTRACT_VIEWER: 'See contracts and which contract an organization follows',
  CONTRACT_MANAGER: 'Create, change, copy and assign contracts',
  COMMISSION_VIEWER: 'See commission profiles and rules, and calculate commissions',
  COMMISSION_MANAGER: 'Create, change and delete commission profiles, rules and conditions',
  LIMIT_PROFILE_VIEWER: "See the limit profiles of contracts' commission profiles and gate commission profiles",
  LIMIT_PROFILE_MANAGER: "Create and change the limit profiles of contracts' commission profiles and gate commission profiles",
  EXCHANGE_RATE_VIEWER: 'See exchange rates',
  EXCHANGE_RATE_MANAGER: 'Set exchange rates of currency pairs',
  EXCHANGE_RESERVE_MANAGER: "Fund issuers' exchange reserve coins from their bank-settlement coins",
  SYSTEM_OPERATION_CREATOR:
    "Move money between the operator's system coins and the coins of cash desks and gate providers (cash inputs and collects, investments, gate investments)",
  EXCHANGE_CREATOR: "Exchange money between the organization's own coins of different currencies",
  VOUCHER_OWNER: "Buy prepaid vouchers from the organization's own coins, see and block them",
  VOUCHER_REDEEMER: "Redeem a prepaid voucher's code into one of the organization's own coins",
  VOUCHER_MANAGER: 'Return the money of expired vouchers to their creators now',
  SMART_CARD_OWNER: "Issue smart cards for the organization's own coins, see, block and unblock them",
  BANK_TOP_UP_REQUESTER:
    "Request bank top-ups of the organization's own coins (of any coin with BANK_TOP_UP_MANAGER) and see those requests",
  BANK_WITHDRAWAL_REQUESTER: "Request withdrawals from the organization's own coins to a bank account (held until decided) and see them",
  BANK_WITHDRAWAL_MANAGER: 'Pay coins out to banks at once, and accept or decline withdrawal requests',
  BANK_ACCOUNT_OWNER: "Keep the organization's bank accounts for withdrawals",
  BANK_ACCOUNT_VIEWER: "See the organization's bank accounts (every organization's with BANK_ACCOUNT_APPROVER)",
  BANK_ACCOUNT_APPROVER: "Approve and reject every organization's bank accounts",
  BANK_CATALOG_VIEWER: 'See the catalog of banks',
  BANK_CATALOG_MANAGER: 'Add banks to the catalog and import it from a CSV file',
  CASH_DESK_MANAGER: 'Create cash desks and open their cash coins',
  CASH_DESK_VIEWER: "See cash desks and their operations: staff all, a desk's cashiers their desk's, customers those on their coins",
  CASH_DESK_OPERATOR:
    "Take cash in and pay cash out at the member's own cash desk, present customers' cash-out codes, and complete (a cash-out only with its code) or decline its operations",
  CASH_DESK_SUPERVISOR:
    'Complete the cash-ins and decline the operations of every cash desk (with CASH_DESK_OPERATOR); never complete a cash-out',
  CASH_DESK_CONFIRMER: "Confirm or refuse cash desk operations on the organization's own coins",
  CASH_OUT_CODE_CREATOR: "Create one-time cash-out codes for the organization's own coins, to take cash out at a cash desk",
  WEBHOOK_OWNER: "Register the organization's webhook endpoints, see their deliveries and send them again",
  ACTUATOR_METRICS_VIEWER: 'Scrape the Prometheus metrics',
  MESSAGE_VIEWER:
    'See the messages sent to users (one-time codes and notices): where each went, pending, sent or undeliverable; never a code',
  DASHBOARD_VIEWER: "See the operator's dashboard: volumes, open holds, failed logins, webhook failures",
  PROFILE_OWNER: "See and edit one's own profile, and ask to reset one's own identification",
  PROFILE_VIEWER: "See any user's profile and identification reset requests, and ask to reset an identification",
  IDENTIFICATION_MANAGER: 'Change identification statuses, decide identification reset requests and identity documents',
  PROFILE_MANAGER:
    "Edit a user's profile: person, address, business and security settings; ask to change their login contact, which changes once the user confirms the code sent to it",
  CONTACT_BOOK_OWNER: "Keep one's own contact book",
  ORGANIZATION_VIEWER: "See organizations and their coins: one's own, or any with USER_VIEWER (details) and COIN_VIEWER (coins)",
  USER_ACTION_REVERSER: 'Reverse what a recorded user action did (a money operation by its linked reversal)',
  AUDIT_CHECKER: 'Verify the hash chain of the user action log',
  COIN_STATEMENT_VIEWER: "See statements of the organization's own coins (of every coin with COIN_VIEWER)",
  GATE_PROVIDER_MANAGER: 'Add gate providers and change their settings',
  GATE_PROVIDER_VIEWER: 'See gate providers and all their products',
  GATE_PRODUCT_MANAGER: 'Add gate products',
  GATE_TRANSACTION_CREATOR: "See the gate products on sale and pay through a gate from the organization's own coins",
  GATE_TRANSACTION_VIEWER: "See the organization's gate transactions (every one with TRANSACTION_AUDITOR)",
  INVOICE_ISSUER: "Issue, see and withdraw the organization's invoices and invoice templates",
  INVOICE_PAYER: "Pay invoices from the organization's own coins",
  MERCHANT_PRODUCT_MANAGER: "Keep the merchant's product catalogue and its prices",
  MERCHANT_PAYMENT_CREATOR: "Pay a merchant from the organization's own coin, smart card or a voucher",
  MERCHANT_PAYMENT_VIEWER: 'See the merchant payments the organization made or took, and what they bought',
  POINT_OF_SALE_MANAGER: "Keep the merchant's points of sale",
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

/** What every customer (individual or merchant) may do with their own organization's money. */
const CUSTOMER: Permission[] = [
  'CURRENCY_VIEWER',
  'ISSUER_VIEWER',
  'COIN_OWNER',
  'COIN_MAIN_STATUS_SETTER',
  'COIN_CLOSURE',
  'TRANSFER_CREATOR',
  'TRANSACTION_VIEWER',
  'COIN_REPORT_VIEWER',
  'TRANSACTION_CATEGORY_OWNER',
  'TRANSFER_TEMPLATE_OWNER',
  'SUBSCRIPTION_OWNER',
  'EXCHANGE_RATE_VIEWER',
  'EXCHANGE_CREATOR',
  'VOUCHER_OWNER',
  'VOUCHER_REDEEMER',
  'SMART_CARD_OWNER',
  'BANK_TOP_UP_REQUESTER',
  'BANK_WITHDRAWAL_REQUESTER',
  'BANK_ACCOUNT_OWNER',
  'BANK_ACCOUNT_VIEWER',
  'BANK_CATALOG_VIEWER',
  'CASH_DESK_VIEWER',
  'CASH_DESK_CONFIRMER',
  'CASH_OUT_CODE_CREATOR',
  'WEBHOOK_OWNER',
  'PROFILE_OWNER',
  'CONTACT_BOOK_OWNER',
  'ORGANIZATION_VIEWER',
  'COIN_STATEMENT_VIEWER',
  'GATE_TRANSACTION_CREATOR',
  'GATE_TRANSACTION_VIEWER',
  'INVOICE_ISSUER',
  'INVOICE_PAYER',
  'MERCHANT_PAYMENT_CREATOR',
  'MERCHANT_PAYMENT_VIEWER',
];

/** What a shop adds: its catalogue and its points of sale. */
const SHOP: Permission[] = ['MERCHANT_PRODUCT_MANAGER', 'POINT_OF_SALE_MANAGER'];

/** What every member of the operator's staff may read. */
const STAFF_READ: Permission[] = [
  'USER_VIEWER',
  'USER_ACTION_VIEWER',
  'CURRENCY_VIEWER',
  'ISSUER_VIEWER',
  'COIN_VIEWER',
  'TRANSACTION_VIEWER',
  'TRANSACTION_AUDITOR',
  'EXCHANGE_RATE_VIEWER',
  'BANK_CATALOG_VIEWER',
  'CASH_DESK_VIEWER',
  'PROFILE_OWNER',
  'PROFILE_VIEWER',
  'ORGANIZATION_VIEWER',
  'COIN_STATEMENT_VIEWER',
  'GATE_PROVIDER_VIEWER',
  'GATE_TRANSACTION_VIEWER',
];

/** Compliance: identification decided, reset requests approved or declined, bank accounts approved, the action log verified. */
const COMPLIANCE: Permission[] = ['IDENTIFICATION_MANAGER', 'AUDIT_CHECKER', 'BANK_ACCOUNT_VIEWER', 'BANK_ACCOUNT_APPROVER'];

/** The back office's money desk: bank top-ups and withdrawals decided, cash desk operations completed anywhere. */
const MONEY_DESK: Permission[] = [
  'BANK_TOP_UP_MANAGER',
  'BANK_TOP_UP_REQUESTER',
  'BANK_WITHDRAWAL_MANAGER',
  'BANK_WITHDRAWAL_REQUESTER',
  'BANK_CATALOG_MANAGER',
  'CASH_DESK_OPERATOR',
  'CASH_DESK_SUPERVISOR',
];

/** Who sets the operator's prices: contracts and their commissions (administrators and the cfo). */
const PRICING: Permission[] = [
  'CONTRACT_VIEWER',
  'CONTRACT_MANAGER',
  'COMMISSION_VIEWER',
  'COMMISSION_MANAGER',
  'LIMIT_PROFILE_VIEWER',
  'LIMIT_PROFILE_MANAGER',
];

/**
 * Who runs the currency desk: exchange rates, the exchange reserves, expired vouchers and the system operations
 * (administrators and the cfo; accountants the last two).
 */
const TREASURY: Permission[] = ['EXCHANGE_RATE_MANAGER', 'EXCHANGE_RESERVE_MANAGER', 'VOUCHER_MANAGER', 'SYSTEM_OPERATION_CREATOR'];

/** Who runs the service: metrics, the dashboard, the operator's own webhooks (users On Hold), the scheduler, the messages outbox (administrators). */
const OPERATIONS: Permission[] = ['WEBHOOK_OWNER', 'ACTUATOR_METRICS_VIEWER', 'DASHBOARD_VIEWER', 'SCHEDULER_OPERATOR', 'MESSAGE_VIEWER'];

/** Each role's permissions. */
export const GRANTS: Record<Role, readonly Permission[]> = {
  administrator: [
    ...STAFF_READ,
    'USER_MANAGER',
    'PROFILE_MANAGER',
    'USER_RELEASER',
    'USER_SESSION_REVOKER',
    'LEDGER_AUDITOR',
    'CURRENCY_MANAGER',
    'ISSUER_MANAGER',
    'TRANSACTION_REVERSER',
    ...MONEY_DESK,
    'CASH_DESK_MANAGER',
    ...PRICING,
    ...TREASURY,
    ...OPERATIONS,
    ...COMPLIANCE,
    'USER_ACTION_REVERSER',
    'GATE_PROVIDER_MANAGER',
    'GATE_PRODUCT_MANAGER',
  ],
  cfo: [
    ...STAFF_READ,
    'LEDGER_AUDITOR',
    'CURRENCY_MANAGER',
    'ISSUER_MANAGER',
    'TRANSACTION_REVERSER',
    'CASH_DESK_MANAGER',
    ...PRICING,
    ...TREASURY,
    // The family's gate-settings screen is the administrator's and the cfo's.
    'GATE_PROVIDER_MANAGER',
  ],
  accountant: [
    ...STAFF_READ,
    'LEDGER_AUDITOR',
    'TRANSACTION_REVERSER',
    ...MONEY_DESK,
    'CONTRACT_VIEWER',
    'COMMISSION_VIEWER',
    'LIMIT_PROFILE_VIEWER',
    'VOUCHER_MANAGER',
    'SYSTEM_OPERATION_CREATOR',
  ],
  cashier: [
    'CURRENCY_VIEWER',
    'ISSUER_VIEWER',
    'COIN_VIEWER',
    'TRANSACTION_VIEWER',
    'EXCHANGE_RATE_VIEWER',
    'BANK_CATALOG_VIEWER',
    'CASH_DESK_VIEWER',
    'CASH_DESK_OPERATOR',
    'PROFILE_OWNER',
  ],
  // The family's contracts screen is the compliance manager's too (read-only): which contract, commissions and limits
  // a customer is under is what a compliance review weighs.
  compliance_manager: [
    ...STAFF_READ,
    ...COMPLIANCE,
    'USER_ACTION_REVERSER',
    'CONTRACT_VIEWER',
    'COMMISSION_VIEWER',
    'LIMIT_PROFILE_VIEWER',
  ],
  compliance_specialist: [...STAFF_READ, ...COMPLIANCE],
  customer_support: [...STAFF_READ, 'PROFILE_MANAGER', 'MESSAGE_VIEWER'],
  antifraud_specialist: [...STAFF_READ],
  individual: CUSTOMER,
  merchant: [...CUSTOMER, ...SHOP],
};

/**
 * Permissions that act only on the member's own organization (its coins and its money) or on the
 * user's own records (categories, templates). They give no power over other users, so they do not
 * count when deciding whether one user outranks another.
 */
export const OWN_ORGANIZATION_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  'COIN_OWNER',
  'COIN_MAIN_STATUS_SETTER',
  'COIN_CLOSURE',
  'TRANSFER_CREATOR',
  'TRANSACTION_VIEWER',
  'COIN_REPORT_VIEWER',
  'TRANSACTION_CATEGORY_OWNER',
  'TRANSFER_TEMPLATE_OWNER',
  'SUBSCRIPTION_OWNER',
  'EXCHANGE_CREATOR',
  'VOUCHER_OWNER',
  'VOUCHER_REDEEMER',
  'SMART_CARD_OWNER',
  'BANK_TOP_UP_REQUESTER',
  'BANK_WITHDRAWAL_REQUESTER',
  'BANK_ACCOUNT_OWNER',
  // Alone it shows only the organization's own accounts; every organization's takes BANK_ACCOUNT_APPROVER.
  'BANK_ACCOUNT_VIEWER',
  'CASH_DESK_CONFIRMER',
  'CASH_OUT_CODE_CREATOR',
  'WEBHOOK_OWNER',
  'PROFILE_OWNER',
  'CONTACT_BOOK_OWNER',
  'COIN_STATEMENT_VIEWER',
  'GATE_TRANSACTION_CREATOR',
  'INVOICE_ISSUER',
  'INVOICE_PAYER',
  'MERCHANT_PAYMENT_CREATOR',
  'MERCHANT_PAYMENT_VIEWER',
  'MERCHANT_PRODUCT_MANAGER',
  'POINT_OF_SALE_MANAGER',
]);

/**
 * What the roles of an account grant beyond what `holder` holds, leaving out the permissions limited
 * to the member's own organization. Releasing an account answers its new password, and ending its
 * sessions acts on it, so both are refused while this is not empty: no one takes over, or acts on,
 * an account with powers they lack themself.
 */
export function permissionsBeyond(holder: ReadonlySet<Permission>, roles: readonly Role[]): Permission[] {
  const beyond = new Set<Permission>();
  for (const role of roles) {
    for (const permission of GRANTS[role]) {
      if (!holder.has(permission) && !OWN_ORGANIZATION_PERMISSIONS.has(permission)) beyond.add(permission);
    }
  }
  return [...beyond].sort();
}
