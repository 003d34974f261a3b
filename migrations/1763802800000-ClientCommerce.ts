import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The family's web client, vouchers and points of sale.
 *
 * A voucher gets a `serial`: the number people read and type to redeem it (`/prepaid-coins/{serial}/…`), next to its
 * UUID. It is drawn at random (16 digits), so the serials of other people's vouchers cannot be guessed one after
 * another; it is not a secret — the code (the client's PIN) is. Existing vouchers get one as the column is added.
 *
 * A point of sale gets the client's fields: a description, a website, the URLs the client shows (`server_url`,
 * `result_url`: stored and answered, the service calls neither), a transaction category, and
 * `trust_all_certificates`, which may only be false (the service never weakens TLS checks).
 */
export class ClientCommerce1763802800000 implements MigrationInterface {
  name = 'ClientCommerce1763802800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE vouchers ADD COLUMN serial bigint NOT NULL UNIQUE
         DEFAULT (1000000000000000 + floor(random() * 9000000000000000))::bigint CHECK (serial BETWEEN 1000000000000000 AND 9999999999999999)`,
    );
    await q.query(`
      ALTER TABLE points_of_sale
        ADD COLUMN description text CHECK (length(description) <= 500),
        ADD COLUMN website text CHECK (length(website) <= 500),
        ADD COLUMN server_url text CHECK (length(server_url) <= 500),
        ADD COLUMN result_url text CHECK (length(result_url) <= 500),
        ADD COLUMN category_id uuid REFERENCES transaction_categories(id) ON DELETE SET NULL,
        ADD COLUMN trust_all_certificates boolean NOT NULL DEFAULT false CHECK (NOT trust_all_certificates)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE points_of_sale DROP COLUMN description, DROP COLUMN website, DROP COLUMN server_url, DROP COLUMN result_url,
        DROP COLUMN category_id, DROP COLUMN trust_all_certificates`);
    await q.query(`ALTER TABLE vouchers DROP COLUMN serial`);
  }
}
