import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment gates (issue 14): outside payment providers (a built-in simulated one), the products sold through them,
 * gate transactions (a hold on the payer's coin while the provider decides), and the gate commission profiles of
 * a contract: provider rules (with a mandatory end date) and product rules, each collected by the operator or the provider.
 */
export class Gates1763801640000 implements MigrationInterface {
  name = 'Gates1763801640000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gate_providers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
        type text NOT NULL CHECK (type IN ('acquiring','billing','card_issuing','payout')),
        active boolean NOT NULL DEFAULT true,
        settings jsonb NOT NULL DEFAULT '{}'::jsonb,
        -- The callback signing secret: written, never answered.
        secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE gate_products (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        gate_provider_id uuid NOT NULL REFERENCES gate_providers(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        min_amount numeric(38,18) NOT NULL CHECK (min_amount > 0),
        max_amount numeric(38,18) NOT NULL,
        active boolean NOT NULL DEFAULT true,
        fields jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (max_amount >= min_amount),
        UNIQUE (gate_provider_id, name)
      )`);
    await q.query(`
      CREATE TABLE gate_transactions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        product_id uuid NOT NULL REFERENCES gate_products(id),
        gate_provider_id uuid NOT NULL REFERENCES gate_providers(id),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        coin_serial bigint NOT NULL REFERENCES coins(serial),
        type text NOT NULL CHECK (type IN ('payment','payout','card_issue')),
        amount numeric(38,18) NOT NULL CHECK (amount > 0),
        commission numeric(38,18) NOT NULL CHECK (commission >= 0),
        fields jsonb NOT NULL DEFAULT '{}'::jsonb,
        status text NOT NULL CHECK (status IN ('initiated','provider_assigned','pending','processed','failure')),
        operation_id uuid REFERENCES operations(id),
        provider_reference text UNIQUE,
        provider_data jsonb,
        failure_reason text,
        created_by uuid NOT NULL REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX gate_transactions_organization_idx ON gate_transactions (organization_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX gate_transactions_created_idx ON gate_transactions (created_at DESC, id DESC)`);
    // The reconciler's work list: transactions a provider has not finished.
    await q.query(
      `CREATE INDEX gate_transactions_open_idx ON gate_transactions (updated_at) WHERE status IN ('provider_assigned','pending')`,
    );

    await q.query(`
      CREATE TABLE gate_commission_profiles (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        contract_id uuid NOT NULL REFERENCES contracts(id),
        gate_provider_id uuid NOT NULL REFERENCES gate_providers(id),
        name text CHECK (length(name) <= 100),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (contract_id, gate_provider_id)
      )`);
    await q.query(`
      CREATE TABLE gate_commission_rules (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        profile_id uuid NOT NULL REFERENCES gate_commission_profiles(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('provider','product')),
        product_id uuid REFERENCES gate_products(id),
        type text NOT NULL CHECK (type IN ('zero','percent','fixed','greater_of_fixed_or_percent','lesser_of_fixed_or_percent','fixed_and_percent')),
        value_percent numeric(38,18) CHECK (value_percent >= 0 AND value_percent <= 100),
        value_fixed numeric(38,18) CHECK (value_fixed >= 0),
        collector text NOT NULL CHECK (collector IN ('operator','provider')),
        begin_date timestamptz NOT NULL,
        end_date timestamptz,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((kind = 'product') = (product_id IS NOT NULL)),
        CHECK (kind = 'product' OR end_date IS NOT NULL),
        CHECK (end_date IS NULL OR end_date > begin_date)
      )`);
    await q.query(`CREATE INDEX gate_commission_rules_profile_idx ON gate_commission_rules (profile_id, kind, begin_date DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gate_commission_rules`);
    await q.query(`DROP TABLE gate_commission_profiles`);
    await q.query(`DROP TABLE gate_transactions`);
    await q.query(`DROP TABLE gate_products`);
    await q.query(`DROP TABLE gate_providers`);
  }
}
