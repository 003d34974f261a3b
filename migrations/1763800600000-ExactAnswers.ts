import { MigrationInterface, QueryRunner } from 'typeorm';

export class ExactAnswers1763800600000 implements MigrationInterface {
  name = 'ExactAnswers1763800600000';

  async up(q: QueryRunner): Promise<void> {
    // A replayed answer is the stored text, byte for byte: amounts are exact JSON numbers, which jsonb would rewrite.
    await q.query(`ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE text USING response_body::text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE jsonb USING response_body::jsonb`);
  }
}
