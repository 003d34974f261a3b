/**
 * The one catalogue of operation types, in the vocabulary clients of this API family read. It
 * drives the type a posting may have, the enum of the operation DTO and of the
 * `/transactions/view` filter, and the database's CHECK on `operations.type` (values are added at
 * start, see LedgerRepository.syncCheck). A new money flow adds its type here and nowhere else.
 */
export const OPERATION_TYPES = {
  client_transaction_transfer: 'A transfer from a client coin to another client coin of the same currency',
  bank_topup: "Money in from a bank: the issuer's bank-settlement coin credits a client coin",
  coin_closure: 'What was left in a coin being closed, moved to another coin of its organization',
  reversal: 'Undoes a processed operation with the opposite legs, linked by reversalOf',
} as const satisfies Record<string, string>;

export type OperationType = keyof typeof OPERATION_TYPES;
export const OPERATION_TYPE_NAMES = Object.keys(OPERATION_TYPES) as OperationType[];

/**
 * `new`: recorded, nothing moved or held yet. `pending`: amounts are held, waiting for a decision
 * or an outside party. `processed`: the money moved. `declined`: refused, holds released.
 * `error`: failed outside the service (a provider), holds released. `reversed`: undone by a reversal.
 */
export const OPERATION_STATUSES = ['new', 'pending', 'processed', 'declined', 'error', 'reversed'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];
