/**
 * The one catalogue of operation types. It drives the type a posting may have, the enum of the
 * operation DTO and of the `/transactions/view` filter, and the database's CHECK on
 * `operations.type` (synced at start, see LedgerRepository.syncCatalogue). A new money flow adds
 * its type here and nowhere else.
 */
export const OPERATION_TYPES = {
  transfer: 'A transfer from a client coin to another client coin of the same currency',
  bank_top_up: "Money in from a bank: the issuer's bank-settlement coin credits a client coin",
  coin_closure: 'What was left in a coin being closed, moved to another coin of its organization',
  reversal: 'Undoes a completed operation with the opposite entries, linked by reversalOf',
} as const satisfies Record<string, string>;

export type OperationType = keyof typeof OPERATION_TYPES;
export const OPERATION_TYPE_NAMES = Object.keys(OPERATION_TYPES) as OperationType[];

/**
 * `completed`: the money moved. `pending`: amounts are held, waiting for a decision.
 * `declined`: a pending operation whose holds were released. `reversed`: undone by a reversal.
 */
export const OPERATION_STATUSES = ['completed', 'pending', 'declined', 'reversed'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];
