/**
 * The operation flows: the kinds of money movement a commission attaches to, in the vocabulary
 * clients of this API family read. One list with the operation types below: a flow that exists
 * as an operation today has an operation type of the same name, and the issues that bring the
 * others (withdrawals, exchange, cash desks, …) add their operation types under these names.
 * `GET /operation-flows` answers this list; commission profiles name one flow each.
 */
export const OPERATION_FLOWS = {
  client_transaction_transfer: 'A transfer from a client coin to another client coin of the same currency',
  bank_topup: "Money in from a bank: the issuer's bank-settlement coin credits a client coin",
  bank_withdrawal: 'Money out to a bank account: a client coin pays the issuer’s bank-settlement coin',
  exchange: 'A client exchanges money between two of its coins of different currencies',
  cash_in: 'Cash paid in at a cash desk: the desk coin credits a client coin',
  cash_out: 'Cash paid out at a cash desk: a client coin pays the desk coin',
  voucher: 'A prepaid voucher is bought or redeemed',
  gate_payment: 'A payment to an outside provider through a gate (mobile top-up, utilities, cards)',
  invoice_payment: 'An invoice is paid from a client coin to the issuing merchant',
  merchant_payment: 'A payment to a merchant at a point of sale',
} as const satisfies Record<string, string>;

export type OperationFlow = keyof typeof OPERATION_FLOWS;
export const OPERATION_FLOW_NAMES = Object.keys(OPERATION_FLOWS) as OperationFlow[];

/**
 * The one catalogue of operation types, in the vocabulary clients of this API family read. It
 * drives the type a posting may have, the enum of the operation DTO and of the
 * `/transactions/view` filter, and the database's CHECK on `operations.type` (values are added at
 * start, see LedgerRepository.syncCheck). A new money flow adds its type here and nowhere else;
 * a type that carries commissions takes its flow's name and description (FLOW_OF_TYPE).
 */
export const OPERATION_TYPES = {
  client_transaction_transfer: OPERATION_FLOWS.client_transaction_transfer,
  bank_topup: OPERATION_FLOWS.bank_topup,
  bank_withdrawal: OPERATION_FLOWS.bank_withdrawal,
  cash_in: OPERATION_FLOWS.cash_in,
  cash_out: OPERATION_FLOWS.cash_out,
  coin_closure: 'What was left in a coin being closed, moved to another coin of its organization',
  reversal: 'Undoes a processed operation with the opposite legs, linked by reversalOf',
  exchange: OPERATION_FLOWS.exchange,
  reserve_funding: "Staff fund an issuer's exchange reserve coin from its bank-settlement coin",
  voucher_create: "A prepaid voucher is bought: a client coin pays the issuer's voucher reserve (flow voucher)",
  voucher_redeem: "A prepaid voucher is redeemed: the voucher reserve credits the redeemer's client coin",
  voucher_refund: "A blocked or expired voucher's amount goes back from the voucher reserve to its creator's coin",
  cash_desk_redeem:
    'A customer withdraws cash at a cash desk: their coin pays the desk’s cash coin, and the desk hands the cash to whom they named (priced as cash_out)',
  card_payment: 'A transfer paid with a smart card: the card’s coin pays another client coin (priced as client_transaction_transfer)',
  gate_payment: OPERATION_FLOWS.gate_payment,
  gate_charge:
    "Money in through a gate (a TOPUP): the provider charges the payer's card, the issuer's gate-settlement coin credits a client coin (priced as gate_payment)",
  invoice_payment: OPERATION_FLOWS.invoice_payment,
  merchant_payment: OPERATION_FLOWS.merchant_payment,
  cash_input: "Staff put cash into a cash desk: the issuer's cash_desk system coin credits the desk's cash coin",
  cash_collect: "Staff collect cash from a cash desk: the desk's cash coin pays the issuer's cash_desk system coin",
  cash_investment: "Staff invest in a cash desk: the issuer's bank-settlement coin credits the desk's cash coin",
  gate_investment: "Staff prefund the gate providers: the issuer's bank-settlement coin credits its gate-settlement coin",
} as const satisfies Record<string, string>;

export type OperationType = keyof typeof OPERATION_TYPES;
export const OPERATION_TYPE_NAMES = Object.keys(OPERATION_TYPES) as OperationType[];

/** The flow an operation type is priced as: the flow of the same name, or none (closures and reversals carry no fee). */
export function flowOfType(type: string): OperationFlow | null {
  return Object.prototype.hasOwnProperty.call(OPERATION_FLOWS, type) ? (type as OperationFlow) : null;
}

/**
 * `new`: recorded, nothing moved or held yet. `pending`: amounts are held, waiting for a decision
 * or an outside party. `processed`: the money moved. `declined`: refused, holds released.
 * `error`: failed outside the service (a provider), holds released. `reversed`: undone by a reversal.
 */
export const OPERATION_STATUSES = ['new', 'pending', 'processed', 'declined', 'error', 'reversed'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/**
 * The family's names of the service's operation types, where they differ: the one table between
 * the two vocabularies. History answers (`POST /transactions/view`) and `GET /operation-flows` name
 * a type by its family name; a type filter accepts either name. A type not listed has one name.
 */
export const FAMILY_TYPE_NAMES: Partial<Record<OperationType, string>> = {
  bank_withdrawal: 'bank_redeem',
  exchange: 'exchange_transaction',
  voucher_create: 'client_create_prepaid',
  voucher_redeem: 'client_charge_prepaid',
  // The family's gate_charge is money in through a gate: the service's own gate_charge (a TOPUP).
  gate_payment: 'gate_purchase',
  invoice_payment: 'merchant_invoice',
};

/** An operation type's name in the family's vocabulary. */
export function familyTypeOf(type: string): string {
  return FAMILY_TYPE_NAMES[type as OperationType] ?? type;
}

/**
 * The family's transaction types the service has no operations of (its clients list them in their
 * filters): accepted by a type filter, they match nothing.
 */
export const FAMILY_ONLY_TYPES = [
  'client_transaction_split',
  'client_transaction_merge',
  'client_transaction_issue',
  'client_transaction_balance',
  'client_transaction_redeem',
  'gate_redeem',
  'gate_purchase_via_gate',
  'gate_card_refund',
  'gate_card_verification',
  'cash_desk_charge',
  'payroll_charge',
  'payroll_charge_sub',
  'reserve_charge',
  'reserve_redeem',
  'contract_transit',
  'merchant_cashback',
  'deposit_topup',
  'deposit_profit_payment',
  'deposit_payout',
  'deposit_capitalization',
  'deposit_accruing',
  'credit_issue',
  'credit_payment',
] as const;

/** Every name a type filter accepts: the service's, the family's for them, and the family's own. */
export const TYPE_FILTER_NAMES: readonly string[] = [
  ...new Set([...OPERATION_TYPE_NAMES, ...OPERATION_TYPE_NAMES.map(familyTypeOf), ...FAMILY_ONLY_TYPES]),
];

/** The service's operation types a type filter's names stand for (a family-only name stands for none). */
export function serviceTypesOf(names: readonly string[]): OperationType[] {
  return OPERATION_TYPE_NAMES.filter((type) => names.includes(type) || names.includes(familyTypeOf(type)));
}

/** The family's statuses a status filter also accepts, and the service's status each stands for. */
export const FAMILY_STATUS_NAMES: Record<string, OperationStatus> = { rejected: 'declined', approved: 'processed' };
