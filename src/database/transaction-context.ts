import { AsyncLocalStorage } from 'node:async_hooks';
import type { PoolClient } from 'pg';

/** What the request that opened a transaction says about itself; the ledger stamps it on the operations it writes. */
export interface TransactionMeta {
  /** The user on whose behalf the work runs. */
  actorUserId?: string;
  /** The request's Idempotency-Key, kept as the operation's requestIdentifier. */
  requestIdentifier?: string;
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

/** What the open transaction says about its request, else what `withTransactionMeta` set, else nothing. */
export function currentTransactionMeta(): TransactionMeta {
  return transactionStorage.getStore()?.meta ?? metaStorage.getStore() ?? {};
}
