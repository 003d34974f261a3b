import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stored answer (idempotency_keys.response_body) of a money flow is about 2 KB of JSON: just over the size at which
 * PostgreSQL compresses a row (toast_tuple_target, 2,032 bytes by default), so every keyed request paid for pglz
 * compressing its answer. Kept inline and uncompressed up to a page's room instead (a longer answer is still toasted).
 */
export class IdempotencyAnswersInline1763804560000 implements MigrationInterface {
  name = 'IdempotencyAnswersInline1763804560000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys SET (toast_tuple_target = 8160)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys RESET (toast_tuple_target)`);
  }
}
