import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { performance } from 'node:perf_hooks';
import { sqlState } from '../common/sql-state';
import { addDbTime } from './request-timing';
import { currentTransaction, TransactionContext, TransactionMeta, transactionStorage } from './transaction-context';

/** PostgreSQL SQLSTATEs that mean "try the whole transaction again". */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

export interface UnitOfWorkOptions {
  meta?: TransactionMeta;
  isolation?: IsolationLevel;
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

  constructor(private readonly dataSource: DataSource) {}

  async run<T>(work: () => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    if (currentTransaction()) return work();
    for (let attempt = 1; ; attempt++) {
      const afterCommit: TransactionContext['afterCommit'] = [];
      const onCommit: TransactionContext['onCommit'] = [];
      try {
        let inside = 0;
        const inContext = async (manager: EntityManager) => {
          const context: TransactionContext = { manager, meta: options.meta ?? {}, operationIds: [], afterCommit, onCommit };
          const entered = performance.now();
          try {
            return await transactionStorage.run(context, work);
          } finally {
            inside = performance.now() - entered;
          }
        };
        const started = performance.now();
        // The server's default (READ COMMITTED) needs no statement: naming it costs a round trip per transaction.
        const result = await (options.isolation
          ? this.dataSource.transaction(options.isolation, inContext)
          : this.dataSource.transaction(inContext));
        // The connection, BEGIN and COMMIT: what the transaction cost beyond its own statements (timed by Database).
        addDbTime(performance.now() - started - inside);
        for (const hook of onCommit) hook();
        this.runAfterCommit(afterCommit);
        return result;
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
      }
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
}
