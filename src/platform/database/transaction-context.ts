import { AsyncLocalStorage } from 'node:async_hooks';
import type { PoolClient } from 'pg';
import type { GroupedAnswer } from './grouped-answer';
import { currentRequestMeta } from './request-timing';

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
  /** The request runs under `@Idempotent()` (its interceptor opened the unit of work). */
  idempotent?: boolean;
  /** Work the service does on its own rather than for a user's request (a sweep, a provider's outcome), by name. */
  job?: string;
  /**
   * A keyed request on a group-commit route, running without a transaction: its posting's group stores its answer
   * (see GroupedAnswer). Such a request may open no transaction of its own (UnitOfWork.run refuses it: AnswerAlone).
   */
  answer?: GroupedAnswer;
}

/** The open transaction, carried by AsyncLocalStorage so services never pass a connection around. */
export interface TransactionContext {
  /** The pool connection the transaction runs on. */
  client: PoolClient;
  meta: TransactionMeta;
  /** Operations the ledger wrote in this transaction, in order. */
  operationIds: string[];
  /** Work to run once this transaction has committed (never after a rollback), in order. */
  afterCommit: Array<() => void | Promise<void>>;
  /** Run synchronously the moment the transaction has committed, before its work's result is returned (cache invalidation). */
  onCommit: Array<() => void>;
}

export const transactionStorage = new AsyncLocalStorage<TransactionContext>();

export function currentTransaction(): TransactionContext | undefined {
  return transactionStorage.getStore();
}

const metaStorage = new AsyncLocalStorage<TransactionMeta>();

/**
 * Runs `work` on behalf of a request without opening a transaction: transactions opened inside it carry `meta`.
 * For a route whose one write is a grouped ledger posting (see `@Idempotent({ groupCommit: true })`).
 */
export function withTransactionMeta<T>(meta: TransactionMeta, work: () => T): T {
  return metaStorage.run(meta, work);
}

/**
 * Runs work the service does on its own — a sweep, a reconciliation, a provider's outcome, a hook after a commit —
 * under its name instead of the request or user it may have started from. The ledger posts for such work outside
 * `@Idempotent()` (see LedgerService's idempotency rule); it records no staff action.
 */
export function asJob<T>(job: string, work: () => T): T {
  return metaStorage.run({ job }, work);
}

/**
 * The connection of the group waiting for this keyed request's answer (GroupedAnswer.connection), if any: where the
 * request's statements run while no transaction of its own is open.
 */
export function groupConnection(): PoolClient | undefined {
  return metaStorage.getStore()?.answer?.connection;
}

/** What the open transaction says about its request, else what `withTransactionMeta`/`asJob` set, else the running request. */
export function currentTransactionMeta(): TransactionMeta {
  return transactionStorage.getStore()?.meta ?? metaStorage.getStore() ?? currentRequestMeta() ?? {};
}
