import { Inject, Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import type { Pool, PoolClient } from 'pg';
import { sqlState } from '../common/sql-state';
import { AnswerAlone } from './grouped-answer';
import { PRIMARY_POOL } from './primary-pool';
import { addDbTime } from './request-timing';
import {
  asJob,
  currentTransaction,
  currentTransactionMeta,
  TransactionContext,
  TransactionMeta,
  transactionStorage,
  withTransactionMeta,
} from './transaction-context';

export type { TransactionMeta };

/** PostgreSQL SQLSTATEs that mean "try the whole transaction again". */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

export interface UnitOfWorkOptions {
  meta?: TransactionMeta;
  isolation?: IsolationLevel;
  /** One attempt only: a serialization failure or deadlock is thrown, not retried (work that handed results out before its COMMIT). */
  once?: boolean;
}

/**
 * The one way to run a database transaction. Work started inside an open transaction joins it, so
 * a service can say "this is one unit" without knowing whether a route already opened one.
 * Serialization failures and deadlocks are retried a bounded number of times with jitter, so they
 * never surface as a 500.
 */
@Injectable()
export class UnitOfWork {
  private readonly logger = new Logger(UnitOfWork.name);

  constructor(@Inject(PRIMARY_POOL) private readonly pool: Pool) {}

  async run<T>(work: () => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    if (currentTransaction()) return work();
    const meta = options.meta ?? currentTransactionMeta();
    // A keyed request whose answer a group is to store: a transaction of its own would commit apart from that answer.
    if (meta.answer) throw new AnswerAlone('it opens a transaction of its own');
    for (let attempt = 1; ; attempt++) {
      const afterCommit: TransactionContext['afterCommit'] = [];
      const onCommit: TransactionContext['onCommit'] = [];
      try {
        const result = await this.transaction(options, { meta, operationIds: [], afterCommit, onCommit }, work);
        for (const hook of onCommit) hook();
        this.runAfterCommit(afterCommit);
        return result;
      } catch (error) {
        if (options.once || attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
      }
    }
  }

  /**
   * One attempt: a pool connection, BEGIN, the work in its context, COMMIT (ROLLBACK when the work throws). A
   * connection whose ROLLBACK fails is broken and is destroyed rather than returned to the pool.
   */
  private async transaction<T>(options: UnitOfWorkOptions, state: Omit<TransactionContext, 'client'>, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let inside = 0;
    const client: PoolClient = await this.pool.connect();
    let broken: Error | undefined;
    try {
      // The server's default (READ COMMITTED) needs no words: BEGIN alone.
      await client.query(options.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation}` : 'BEGIN');
      const entered = performance.now();
      let result: T;
      try {
        result = await transactionStorage.run({ ...state, client }, work);
      } finally {
        inside = performance.now() - entered;
      }
      // PostgreSQL answers the COMMIT of a transaction a statement failed in with a ROLLBACK, and no error.
      if ((await client.query('COMMIT')).command !== 'COMMIT') {
        throw new Error('The transaction was rolled back at COMMIT: one of its statements had failed, and its error was caught');
      }
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      }
      throw error;
    } finally {
      client.release(broken);
      // The connection, BEGIN and COMMIT: what the transaction cost beyond its own statements (timed by Database).
      addDbTime(performance.now() - started - inside);
    }
  }

  /**
   * Runs `hook` once the open transaction commits (at once when none is open); never after a rollback.
   * For work that must not hold a connection or a lock: calling a provider, waking a dispatcher.
   * A hook's failure is logged by the caller's own promise handling, never the request's.
   */
  afterCommit(hook: () => void | Promise<void>): void {
    const open = currentTransaction();
    if (open) open.afterCommit.push(hook);
    else this.runAfterCommit([hook]);
  }

  private runAfterCommit(hooks: TransactionContext['afterCommit']): void {
    for (const hook of hooks) {
      // Out of the request's path: the commit is already final, and a hook's error must not undo the answer.
      setImmediate(() => {
        void Promise.resolve()
          .then(hook)
          .catch((error: unknown) =>
            this.logger.error(`after-commit hook failed: ${error instanceof Error ? error.stack : String(error)}`),
          );
      });
    }
  }

  /** The open transaction, if any. */
  current(): TransactionContext | undefined {
    return currentTransaction();
  }

  /**
   * Runs `work` on behalf of a request without opening a transaction; transactions opened inside carry `meta`.
   * For a route whose one write is a grouped ledger posting (`@Idempotent({ groupCommit: true })`).
   */
  withMeta<T>(meta: TransactionMeta, work: () => T): T {
    return withTransactionMeta(meta, work);
  }

  /**
   * Runs the service's own work — a sweep, a reconciliation, a provider's outcome, a hook after a commit — under its
   * name rather than as the request it may have started from (see `asJob`): the ledger posts for it outside `@Idempotent()`.
   */
  asJob<T>(job: string, work: () => T): T {
    return asJob(job, work);
  }

  /** What the open transaction, else the request (`withMeta`), says about itself. */
  meta(): TransactionMeta {
    return currentTransactionMeta();
  }
}
