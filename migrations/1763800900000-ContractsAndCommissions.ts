import { MigrationInterface, QueryRunner } from 'typeorm';

const ORGANIZATION_TYPES = ['individual', 'merchant', 'support', 'cash_desk', 'system'];
const FLOWS = [
  'client_transaction_transfer',
  'bank_topup',
  'bank_withdrawal',
  'exchange',
  'cash_in',
  'cash_out',
  'voucher',
  'gate_payment',
  'invoice_payment',
  'merchant_payment',
];
const COMMISSION_TYPES = ['zero', 'percent', 'fixed', 'greater_of_fixed_or_percent', 'lesser_of_fixed_or_percent', 'fixed_and_percent'];
const list = (values: string[]) => values.map((v) => `'${v}'`).join(', ');

export class ContractsAndCommissions1763800900000 implements MigrationInterface {
  name = 'ContractsAndCommissions1763800900000';

  async up(q: QueryRunner): Promise<void> {
    // Contracts: what an organization's commissions follow. One default, global contract per organization type.
    await q.query(`
      CREATE TABLE contracts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        description text CHECK (length(description) <= 500),
        organization_type text NOT NULL CHECK (organization_type IN (${list(ORGANIZATION_TYPES)})),
        person_type text NOT NULL DEFAULT 'base' CHECK (person_type IN ('base', 'standard', 'gold', 'vip')),
        active boolean NOT NULL DEFAULT true,
        global boolean NOT NULL DEFAULT false,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- organizations refer to (id, organization_type), so a contract only ever serves its own type
        UNIQUE (id, organization_type),
        CHECK (NOT is_default OR (global AND active))
      )`);
    await q.query(`CREATE UNIQUE INDEX contracts_default_idx ON contracts (organization_type) WHERE is_default`);
    await q.query(`CREATE INDEX contracts_type_idx ON contracts (organization_type, name)`);
    await q.query(
      `INSERT INTO contracts (id, name, description, organization_type, global, is_default) VALUES ${ORGANIZATION_TYPES.map(
        (type, i) => `('00000000-0000-4000-8000-00000000010${i + 1}', 'Default ${type.replace('_', ' ')} contract',
                       'Given to every new ${type.replace('_', ' ')} organization', '${type}', true, true)`,
      ).join(', ')}`,
    );

    // Organizations pointed at a random uuid until now: each gets its type's default, and new ones get it on insert.
    await q.query(`ALTER TABLE organizations DROP CONSTRAINT organizations_contract_id_key`);
    await q.query(`ALTER TABLE organizations ALTER COLUMN contract_id DROP DEFAULT`);
    await q.query(`UPDATE organizations o SET contract_id = c.id FROM contracts c WHERE c.is_default AND c.organization_type = o.type`);
    await q.query(`ALTER TABLE organizations ADD CONSTRAINT organizations_contract_fk
                     FOREIGN KEY (contract_id, type) REFERENCES contracts (id, organization_type)`);
    await q.query(`CREATE INDEX organizations_contract_idx ON organizations (contract_id)`);
    await q.query(`
      CREATE FUNCTION organizations_default_contract() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.contract_id IS NULL THEN
          SELECT id INTO NEW.contract_id FROM contracts WHERE is_default AND organization_type = NEW.type;
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER organizations_default_contract BEFORE INSERT ON organizations
                     FOR EACH ROW EXECUTE FUNCTION organizations_default_contract()`);

    // Commission profiles: one per contract, flow and issuer (currency); rules with date ranges; conditions with amount ranges.
    await q.query(`
      CREATE TABLE commission_profiles (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        contract_id uuid NOT NULL REFERENCES contracts(id),
        flow text NOT NULL CHECK (flow IN (${list(FLOWS)})),
        issuer_id uuid NOT NULL REFERENCES issuers(id),
        name text CHECK (length(name) <= 200),
        description text CHECK (length(description) <= 500),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (contract_id, flow, issuer_id)
      )`);
    await q.query(`
      CREATE TABLE commission_rules (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        profile_id uuid NOT NULL REFERENCES commission_profiles(id) ON DELETE CASCADE,
        begin_date timestamptz NOT NULL,
        end_date timestamptz CHECK (end_date > begin_date),
        payer text NOT NULL CHECK (payer IN ('sender', 'recipient')),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX commission_rules_profile_idx ON commission_rules (profile_id, begin_date)`);
    await q.query(`
      CREATE TABLE commission_conditions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        rule_id uuid NOT NULL REFERENCES commission_rules(id) ON DELETE CASCADE,
        begin_amount numeric(38, 18) NOT NULL DEFAULT 0 CHECK (begin_amount >= 0),
        end_amount numeric(38, 18) CHECK (end_amount > begin_amount),
        type text NOT NULL CHECK (type IN (${list(COMMISSION_TYPES)})),
        -- never negative, for every type (specification 2.3 and 8)
        value_percent numeric(38, 18) CHECK (value_percent >= 0 AND value_percent <= 100),
        value_fixed numeric(38, 18) CHECK (value_fixed >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX commission_conditions_rule_idx ON commission_conditions (rule_id, begin_amount)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE commission_conditions, commission_rules, commission_profiles`);
    await q.query(`DROP TRIGGER organizations_default_contract ON organizations`);
    await q.query(`DROP FUNCTION organizations_default_contract()`);
    await q.query(`DROP INDEX organizations_contract_idx`);
    await q.query(`ALTER TABLE organizations DROP CONSTRAINT organizations_contract_fk`);
    await q.query(`UPDATE organizations SET contract_id = gen_random_uuid()`);
    await q.query(`ALTER TABLE organizations ALTER COLUMN contract_id SET DEFAULT gen_random_uuid()`);
    await q.query(`ALTER TABLE organizations ADD CONSTRAINT organizations_contract_id_key UNIQUE (contract_id)`);
    await q.query(`DROP TABLE contracts`);
  }
}
