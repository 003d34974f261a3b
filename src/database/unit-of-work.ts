import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { sqlState } from '../common/sql-state';
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
  constructor(private readonly dataSource: DataSource) {}

  async run<T>(work: () => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    if (currentTransaction()) return work();
    for (let attempt = 1; ; attempt++) {
      try {
        const inContext = (manager: EntityManager) => {
          const context: TransactionContext = { manager, meta: options.meta ?? {}, operationIds: [] };
          return transactionStorage.run(context, work);
        };
        // The server's default (READ COMMITTED) needs no statement: naming it costs a round trip per transaction.
        return await (options.isolation
          ? this.dataSource.transaction(options.isolation, inContext)
          : this.dataSource.transaction(inContext));
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
      }
    }
  }

  /** The open transaction, if any. */
  current(): TransactionContext | undefined {
    return currentTransaction();
  }
}
