import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/** The pool of the primary database: the pg Pool TypeORM opened (migrations run through TypeORM, statements do not). */
export const PRIMARY_POOL = Symbol('PRIMARY_POOL');

/**
 * TypeORM's PostgreSQL driver keeps its pg Pool as `master`. Statements and transactions go to it directly:
 * one pool for the process, without a query runner, broadcaster and result wrapper per statement, and with
 * named prepared statements for the hot ones (see Database.query).
 */
export function primaryPoolOf(dataSource: DataSource): Pool {
  const pool = (dataSource.driver as unknown as { master?: Pool }).master;
  if (!pool) throw new Error('The database connection is not initialised');
  return pool;
}
