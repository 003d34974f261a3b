import { Injectable } from '@nestjs/common';
import { arrayLiteral, Database } from '../database/database';

export interface StoredAnswer {
  request_hash: string;
  response_status: number;
  /** The answer's JSON text, exactly as it was sent. */
  response_body: string;
}

/**
 * The statement of `lockFree`. Each key's stored answer is looked up by a LATERAL join (one index probe per key): as a
 * `NOT EXISTS` in the select list, a generic plan made while the table was small (the group's statements run as generic
 * plans: LedgerRepository.lockCoins) hashed the whole table on every run, a sequential scan of every key ever stored.
 */
export const LOCK_FREE = `SELECT pg_try_advisory_xact_lock(hashtext(k.user_id), hashtext(k.key)) AND stored.user_id IS NULL AS free
    FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(user_id, key, n)
    LEFT JOIN LATERAL (SELECT i.user_id FROM idempotency_keys i WHERE i.user_id = k.user_id::uuid AND i.key = k.key LIMIT 1) AS stored ON true
   ORDER BY k.n`;

/** The texts of `storeAll`, by the number of answers (as many as a group takes: a bounded number of prepared statements). */
const STORE_ALL: string[] = [];

function storeAllText(n: number): string {
  return (STORE_ALL[n] ??= `INSERT INTO idempotency_keys (user_id, key, request_hash, response_status, response_body, operation_id)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[], ARRAY[${Array.from({ length: n }, (_, i) => `$${i + 6}`).join(', ')}]::text[], $5::uuid[])`);
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

  /**
   * For a group of keyed postings (group commit): takes each key's transaction-scoped lock, in one statement, and
   * answers per key whether it is free — locked by this transaction and with no stored answer yet.
   */
  async lockFree(keys: { userId: string; key: string }[]): Promise<boolean[]> {
    const rows = await this.db.query<{ free: boolean }>(LOCK_FREE, [keys.map((k) => k.userId), keys.map((k) => k.key)], {
      prepare: true,
    });
    return rows.map((r) => r.free);
  }

  /**
   * Stores the answers of a group of keyed requests, in one statement. Each answer's text is a parameter of its own
   * (STORE_ALL): in a text array, `pg` would escape every character of it and PostgreSQL parse it back, char by char.
   */
  async storeAll(
    answers: { userId: string; key: string; requestHash: string; status: number; body: string; operationId: string | null }[],
  ): Promise<void> {
    await this.db.query(
      storeAllText(answers.length),
      [
        arrayLiteral(answers.map((a) => a.userId)),
        answers.map((a) => a.key),
        arrayLiteral(answers.map((a) => a.requestHash)),
        arrayLiteral(answers.map((a) => a.status)),
        arrayLiteral(answers.map((a) => a.operationId)),
        ...answers.map((a) => a.body),
      ],
      { prepare: true },
    );
  }
}
