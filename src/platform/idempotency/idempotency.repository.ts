import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

export interface StoredAnswer {
  request_hash: string;
  response_status: number;
  /** The answer's JSON text, exactly as it was sent. */
  response_body: string;
}

/** idempotency_keys: the stored answer of each (user, Idempotency-Key). */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /** A transaction-scoped lock on the key; false when another request holds it. */
  async tryLock(userId: string, key: string): Promise<boolean> {
    const [{ locked }] = await this.db.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock(hashtext($1), hashtext($2)) AS locked',
      [userId, key],
      { prepare: true },
    );
    return locked;
  }

  async find(userId: string, key: string): Promise<StoredAnswer | undefined> {
    const [row] = await this.db.query<StoredAnswer>(
      'SELECT request_hash, response_status, response_body FROM idempotency_keys WHERE user_id = $1 AND key = $2',
      [userId, key],
      { prepare: true },
    );
    return row;
  }

  async store(userId: string, key: string, requestHash: string, status: number, body: string, operationId: string | null): Promise<void> {
    await this.db.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, response_status, response_body, operation_id) VALUES ($1, $2, $3, $4, $5, $6)`,
      [userId, key, requestHash, status, body, operationId],
      { prepare: true },
    );
  }
}
