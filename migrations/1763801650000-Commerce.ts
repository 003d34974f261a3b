import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Commerce (issue 15): invoices and their templates, merchants' products (numeric ids) with a price per currency,
 * points of sale, and merchant payments with what they bought.
 */
export class Commerce1763801650000 implements MigrationInterface {
  name = 'Commerce1763801650000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invoices (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        recipient_coin bigint NOT NULL REFERENCES coins(serial),
        issuer_id uuid NOT NULL REFERENCES issuers(id),
        amount numeric(38,18) NOT NULL CHECK (amount > 0),
        payer_contact text CHECK (length(payer_contact) <= 254),
        items jsonb NOT NULL DEFAULT '[]'::jsonb,
        data jsonb,
        status text NOT NULL DEFAULT 'initiated' CHECK (status IN ('initiated','pending','paid','declined','expired')),
        expires_at timestamptz,
        operation_id uuid REFERENCES operations(id),
        paid_by_coin bigint REFERENCES coins(serial),
        template_id uuid,
        created_by uuid NOT NULL REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        paid_at timestamptz
      )`);
    await q.query(`CREATE INDEX invoices_organization_idx ON invoices (organization_id, created_at DESC, id DESC)`);
    // Search by amount is by issuer and amount together (section 2.3).
    await q.query(`CREATE INDEX invoices_total_price_idx ON invoices (issuer_id, amount)`);
    await q.query(`CREATE INDEX invoices_due_idx ON invoices (expires_at) WHERE status = 'initiated' AND expires_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE invoice_templates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        draft jsonb NOT NULL,
        created_by uuid NOT NULL REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (organization_id, name)
      )`);
    await q.query(`
      CREATE TABLE merchant_products (
        id bigserial PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        category text CHECK (length(category) <= 100),
        description text CHECK (length(description) <= 1000),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX merchant_products_organization_idx ON merchant_products (organization_id, name, id) WHERE deleted_at IS NULL`,
    );
    await q.query(`
      CREATE TABLE merchant_product_prices (
        id bigserial PRIMARY KEY,
        product_id bigint NOT NULL REFERENCES merchant_products(id),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        price numeric(38,18) NOT NULL CHECK (price > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (product_id, currency_id)
      )`);
    await q.query(`
      CREATE TABLE points_of_sale (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        address text CHECK (length(address) <= 500),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX points_of_sale_organization_idx ON points_of_sale (organization_id, name, id) WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE merchant_payments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        merchant_id uuid NOT NULL REFERENCES organizations(id),
        pos_id uuid REFERENCES points_of_sale(id),
        payer_organization_id uuid REFERENCES organizations(id),
        method text NOT NULL CHECK (method IN ('coin','smart_card','voucher')),
        amount numeric(38,18) NOT NULL CHECK (amount > 0),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        description text CHECK (length(description) <= 500),
        operation_id uuid NOT NULL REFERENCES operations(id),
        created_by uuid NOT NULL REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX merchant_payments_merchant_idx ON merchant_payments (merchant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX merchant_payments_payer_idx ON merchant_payments (payer_organization_id, created_at DESC, id DESC)`);
    await q.query(`
      CREATE TABLE merchant_purchases (
        id bigserial PRIMARY KEY,
        payment_id uuid NOT NULL REFERENCES merchant_payments(id),
        product_id bigint REFERENCES merchant_products(id),
        name text NOT NULL,
        quantity integer NOT NULL CHECK (quantity > 0),
        price numeric(38,18) NOT NULL CHECK (price > 0),
        total numeric(38,18) NOT NULL CHECK (total > 0)
      )`);
    await q.query(`CREATE INDEX merchant_purchases_payment_idx ON merchant_purchases (payment_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'merchant_purchases',
      'merchant_payments',
      'points_of_sale',
      'merchant_product_prices',
      'merchant_products',
      'invoice_templates',
      'invoices',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
