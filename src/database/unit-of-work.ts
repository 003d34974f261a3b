import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { sqlState } from './sql-state';

/** PostgreSQL SQLSTATEs that mean "try the whole transaction again". */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

/**
 * The one way to run a database transaction. Serialization failures and deadlocks are retried a
 * bounded number of times with jitter, so they never surface as a 500.
 */
@Injectable()
export class UnitOfWork {
  constructor(private readonly dataSource: DataSource) {}

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(work);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
      }
    }
  }
}
