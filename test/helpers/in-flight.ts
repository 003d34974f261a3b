import type { TestServer } from './server';

/**
 * Runs `request` while another session holds the lock an Idempotency-Key takes (the interceptor's
 * `pg_try_advisory_xact_lock(hashtext(user), hashtext(key))`), as a first request still running
 * would: the route must answer 409 exception.idempotency.in_flight.
 */
export async function whileKeyInFlight<T>(server: TestServer, userId: string, key: string, request: () => Promise<T>): Promise<T> {
  const client = await server.db.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1), hashtext($2))', [userId, key]);
    return await request();
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [userId, key]).catch(() => undefined);
    client.release();
  }
}
