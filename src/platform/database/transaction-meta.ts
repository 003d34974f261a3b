import type { GroupedAnswer } from './grouped-answer';

/** What the request that opened a transaction says about itself; the ledger stamps it on the operations it writes. */
export interface TransactionMeta {
  /** The user on whose behalf the work runs. */
  actorUserId?: string;
  /** The role and organization of the membership the user acts as (the request's principal). */
  actorRole?: string;
  actorOrganizationId?: string;
  /** The actor is the operator's staff: the ledger records each operation it posts for them as a user action (`money_moved`). */
  staff?: boolean;
  /** The HTTP request's id (X-Request-Id). */
  requestId?: string;
  /** The request's Idempotency-Key, kept as the operation's requestIdentifier. */
  requestIdentifier?: string;
  /** The request runs under an `idempotent` @Route (its interceptor opened the unit of work). */
  idempotent?: boolean;
  /** Work the service does on its own rather than for a user's request (a sweep, a provider's outcome), by name. */
  job?: string;
  /**
   * A keyed request on a group-commit route, running without a transaction: its posting's group stores its answer
   * (see GroupedAnswer). Such a request may open no transaction of its own (UnitOfWork.run refuses it: AnswerAlone).
   */
  answer?: GroupedAnswer;
}
