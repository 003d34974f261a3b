import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReportingCategoriesTemplates1763800800000 implements MigrationInterface {
  name = 'ReportingCategoriesTemplates1763800800000';

  async up(q: QueryRunner): Promise<void> {
    // Categories belong to the user who made them; a name is unique per user, whatever its case.
    await q.query(`
      CREATE TABLE transaction_categories (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        color text CHECK (color ~ '^#[0-9A-Fa-f]{6}$'),
        icon text CHECK (length(icon) BETWEEN 1 AND 50),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The owner's list by name (and the name filter, which scans only the owner's categories), and by creation.
    await q.query(`CREATE UNIQUE INDEX transaction_categories_name_idx ON transaction_categories (user_id, lower(name))`);
    await q.query(`CREATE INDEX transaction_categories_created_idx ON transaction_categories (user_id, created_at DESC, id DESC)`);

    // An operation tagged with a category, under the organization whose member tagged it (which took part in it).
    // The operation's date is copied so a category's operations are listed newest first from this index alone.
    await q.query(`
      CREATE TABLE transaction_category_operations (
        category_id uuid NOT NULL REFERENCES transaction_categories(id) ON DELETE CASCADE,
        operation_id uuid NOT NULL REFERENCES operations(id),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        operation_created_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (category_id, operation_id)
      )`);
    await q.query(`CREATE INDEX transaction_category_operations_list_idx
                     ON transaction_category_operations (category_id, organization_id, operation_created_at DESC, operation_id DESC)`);
    // The categories of an operation (the operationIds filter of POST /transaction-categories/view).
    await q.query(`CREATE INDEX transaction_category_operations_operation_idx ON transaction_category_operations (operation_id)`);

    // Saved transfers: the user who saved one, for the organization they acted for, whose coin pays.
    await q.query(`
      CREATE TABLE transfer_templates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        payer_coin bigint NOT NULL REFERENCES coins(serial),
        payee_coin bigint NOT NULL REFERENCES coins(serial),
        amount numeric(38, 18) NOT NULL CHECK (amount > 0),
        description text CHECK (length(description) <= 500),
        custom_information text CHECK (length(custom_information) <= 1000),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (payer_coin <> payee_coin)
      )`);
    await q.query(`CREATE UNIQUE INDEX transfer_templates_name_idx ON transfer_templates (user_id, organization_id, lower(name))`);
    await q.query(`CREATE INDEX transfer_templates_created_idx ON transfer_templates (user_id, organization_id, created_at DESC, id DESC)`);
    // The payerCoins and payeeCoins filters.
    await q.query(`CREATE INDEX transfer_templates_payer_idx ON transfer_templates (payer_coin)`);
    await q.query(`CREATE INDEX transfer_templates_payee_idx ON transfer_templates (payee_coin)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE transfer_templates, transaction_category_operations, transaction_categories`);
  }
}
