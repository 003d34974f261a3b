import { MigrationInterface, QueryRunner } from 'typeorm';

/** A transaction category may carry a picture the family's client shows for it (`imageLink`): an https address. */
export class TransactionCategoryImageLink1763802400000 implements MigrationInterface {
  name = 'TransactionCategoryImageLink1763802400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE transaction_categories ADD COLUMN image_link text CHECK (image_link ~ '^https://\\S+$' AND length(image_link) <= 2048)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE transaction_categories DROP COLUMN image_link`);
  }
}
