import type { DataSource, EntityManager } from 'typeorm';

export type Db = DataSource | EntityManager;

/**
 * Runs SQL and returns its rows. TypeORM answers UPDATE/DELETE … RETURNING as `[rows, count]`;
 * this evens that out so every statement reads the same way.
 */
export async function query<T>(db: Db, sql: string, params: unknown[] = []): Promise<T[]> {
  const result: unknown = await db.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}

/** Above this many matches a search's total is the planner's estimate rather than an exact count. */
export const EXACT_COUNT_LIMIT = 1_000;

/**
 * Counts the rows of `FROM … WHERE …` exactly up to EXACT_COUNT_LIMIT; beyond it answers the
 * planner's estimate, so a first page over millions of rows costs what it costs over thousands.
 */
export async function countRows(db: Db, fromWhere: string, params: unknown[]): Promise<{ total: number; exact: boolean }> {
  const [{ n }] = await query<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM (SELECT 1 ${fromWhere} LIMIT ${EXACT_COUNT_LIMIT + 1}) t`,
    params,
  );
  if (n <= EXACT_COUNT_LIMIT) return { total: n, exact: true };
  return estimateRows(db, fromWhere, params);
}

/** The planner's estimate of the rows of `FROM … WHERE …`, for a count known to exceed EXACT_COUNT_LIMIT. */
export async function estimateRows(db: Db, fromWhere: string, params: unknown[]): Promise<{ total: number; exact: false }> {
  const [plan] = await query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(
    db,
    `EXPLAIN (FORMAT JSON) SELECT 1 ${fromWhere}`,
    params,
  );
  return { total: Math.max(EXACT_COUNT_LIMIT + 1, Math.round(plan['QUERY PLAN'][0].Plan['Plan Rows'])), exact: false };
}
