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
