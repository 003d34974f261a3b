import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Smart cards can be paid to by their 16-digit number: a card keeps a keyed hash of its number (HMAC-SHA-256 under a
 * key of the service, never the number itself), unique among cards, and the date it expires (the family's client
 * shows it). Cards issued before keep no hash: they are paid to by id only. Existing cards expire three years after
 * they were issued, like new ones.
 */
export class SmartCardNumbers1763802500000 implements MigrationInterface {
  name = 'SmartCardNumbers1763802500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE smart_cards ADD COLUMN number_hash bytea CHECK (octet_length(number_hash) = 32), ADD COLUMN expires_on date`,
    );
    await q.query(`UPDATE smart_cards SET expires_on = (created_at + interval '3 years')::date`);
    await q.query(
      `ALTER TABLE smart_cards ALTER COLUMN expires_on SET DEFAULT (now() + interval '3 years')::date, ALTER COLUMN expires_on SET NOT NULL`,
    );
    await q.query(`CREATE UNIQUE INDEX smart_cards_number_hash_idx ON smart_cards (number_hash) WHERE number_hash IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE smart_cards DROP COLUMN number_hash, DROP COLUMN expires_on`);
  }
}
