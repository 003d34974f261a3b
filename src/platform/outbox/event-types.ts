/**
 * The one catalogue of events: each type an organization's webhooks can subscribe to and a module's
 * `@OnDomainEvent` handlers can listen to, with when it is emitted. Emitters call
 * `OutboxService.emit(type, organizationIds, data)` inside the transaction of the change; the webhook
 * DTOs' enum and docs/operators.md follow this list.
 */
export const EVENT_TYPES = {
  'operation.processed': 'An operation was processed: money moved (data: the operation)',
  'operation.declined': 'A pending operation was declined: its holds were released (data: the operation)',
  'operation.reversed': 'A processed operation was reversed (data: {operationId, reversal})',
  'bank_top_up.decided': 'Staff accepted or declined a bank top-up request (data: the request)',
  'bank_withdrawal.decided': 'Staff accepted or declined a bank withdrawal request (data: the request)',
  'invoice.paid': 'An invoice was paid (data: the invoice)',
  'invoice.expired': 'An invoice expired unpaid (data: the invoice)',
  'gate_transaction.finished': 'A payment gate transaction finished (data: the gate transaction)',
  'user.on_hold':
    'A user (an administrator too) was put On Hold after failed password checks (staff only; data: {userId, login, failedAttempts})',
  'one_time_code.issued':
    'A one-time code (sign-up, login confirmation, password recovery, change of login) was sent (staff only; data: {id, purpose, to, expiresAt}, never the code)',
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

/** Events only the operator's staff may subscribe to. */
export const STAFF_ONLY_EVENTS: ReadonlySet<EventType> = new Set<EventType>(['user.on_hold', 'one_time_code.issued']);
