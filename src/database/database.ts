import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { READ_POOL, replicaAllowed } from './read-replica';
import { timedDb } from './request-timing';
import { currentTransaction } from './transaction-context';
import { WriteWatch } from './write-watch';

/** Above this many matches a search's total is the planner's estimate rather than an exact count. */
export const EXACT_COUNT_LIMIT = 1_000;

export interface RowCount {
  total: number;
  exact: boolean;
}

/**
 * How repositories run SQL: inside the open transaction when there is one (see UnitOfWork),
 * else on the pool. Only repositories and the ledger kernel use it (an ESLint rule says so).
 */
@Injectable()
export class Database {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writes: WriteWatch,
    @Inject(READ_POOL) private readonly replica: Pool | null,
  ) {}

  /**
   * Runs SQL and returns its rows. TypeORM answers UPDATE/DELETE … RETURNING as `[rows, count]`;
   * this evens that out so every statement reads the same way.
   */
  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const open = currentTransaction();
    if (!open && this.replica && replicaAllowed() && /^\s*(?:SELECT|EXPLAIN)\b/i.test(sql)) {
      const replica = this.replica;
      return (await timedDb(() => replica.query(sql, params))).rows as T[];
    }
    const runner = open?.manager ?? this.dataSource;
    const result: unknown = await timedDb(() => runner.query(sql, params));
    this.writes.ran(sql);
    if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
      return result[0] as T[];
    }
    return result as T[];
  }

  /**
   * Counts the rows of `FROM … WHERE …` exactly up to EXACT_COUNT_LIMIT; beyond it answers the
   * planner's estimate, so a first page over millions of rows costs what it costs over thousands.
   */
  async countRows(fromWhere: string, params: unknown[]): Promise<RowCount> {
    const [{ n }] = await this.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 ${fromWhere} LIMIT ${EXACT_COUNT_LIMIT + 1}) t`,
      params,
    );
    if (n <= EXACT_COUNT_LIMIT) return { total: n, exact: true };
    return this.estimateRows(fromWhere, params);
  }

  /** The planner's estimate of the rows of `FROM … WHERE …`, for a count known to exceed EXACT_COUNT_LIMIT. */
  async estimateRows(fromWhere: string, params: unknown[]): Promise<RowCount> {
    return { total: Math.max(EXACT_COUNT_LIMIT + 1, await this.plannedRows(fromWhere, params)), exact: false };
  }

  /** The planner's estimate of the rows of `FROM … WHERE …` (no rows are read). */
  async plannedRows(fromWhere: string, params: unknown[]): Promise<number> {
    const [plan] = await this.query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(
      `EXPLAIN (FORMAT JSON) SELECT 1 ${fromWhere}`,
      params,
    );
    return Math.round(plan['QUERY PLAN'][0].Plan['Plan Rows']);
  }
}
