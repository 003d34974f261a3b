import type { PoolClient } from 'pg';
import { contextPart, runWithPart } from './async-context';
import { currentRequestMeta } from './request-timing';
import type { TransactionMeta } from './transaction-meta';

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
  /**
   * BEGIN's error, once known. BEGIN is not waited for (UnitOfWork: it travels with the first statement); should it fail
   * on a connection that still answers, no further statement of the work is sent (Database.query throws this).
   */
  beginFailed?: unknown;
  /** Statements sent but not waited for, whose answers COMMIT waits for instead (UnitOfWork.sendWithCommit). */
  withCommit: Promise<unknown>[];
  /** The connection's socket is corked until the COMMIT is sent, so those statements leave with it (sendWithCommit). */
  corkedForCommit?: boolean;
}

export function currentTransaction(): TransactionContext | undefined {
  return contextPart('transaction') as TransactionContext | undefined;
}

/** Runs `work` inside the transaction `context` (UnitOfWork). */
export function withTransaction<T>(context: TransactionContext, work: () => T): T {
  return runWithPart('transaction', context, work);
}

function currentMeta(): TransactionMeta | undefined {
  return contextPart('meta') as TransactionMeta | undefined;
}

/**
 * Runs `work` on behalf of a request without opening a transaction: transactions opened inside it carry `meta`.
 * For a route whose one write is a grouped ledger posting (see `idempotent: { groupCommit: true }` (@Route)).
 */
export function withTransactionMeta<T>(meta: TransactionMeta, work: () => T): T {
  return runWithPart('meta', meta, work);
}

/**
 * Runs work the service does on its own — a sweep, a reconciliation, a provider's outcome, a hook after a commit —
 * under its name instead of the request or user it may have started from. The ledger posts for such work outside
 * an `idempotent` @Route (see LedgerService's idempotency rule); it records no staff action.
 */
export function asJob<T>(job: string, work: () => T): T {
  return runWithPart('meta', { job }, work);
}

/**
 * The connection of the group waiting for this keyed request's answer (GroupedAnswer.connection), if any: where the
 * request's statements run while no transaction of its own is open.
 */
export function groupConnection(): PoolClient | undefined {
  return currentMeta()?.answer?.connection;
}

/** What the open transaction says about its request, else what `withTransactionMeta`/`asJob` set, else the running request. */
export function currentTransactionMeta(): TransactionMeta {
  return currentTransaction()?.meta ?? currentMeta() ?? currentRequestMeta() ?? {};
}
