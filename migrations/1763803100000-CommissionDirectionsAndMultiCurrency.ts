import { MigrationInterface, QueryRunner } from 'typeorm';

const NO_ISSUER = `'00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * The family's commission settings: a rule's fee may be `shared` between sender and recipient (the family's
 * `direction: SHARED`), and an exchange profile may name the issuer bought (`destination_issuer_id`, a multi-currency
 * profile) — one profile per contract, flow, issuer and destination issuer (none: any). `down` forgets shared rules
 * and multi-currency profiles.
 */
export class CommissionDirectionsAndMultiCurrency1763803100000 implements MigrationInterface {
  name = 'CommissionDirectionsAndMultiCurrency1763803100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE commission_rules DROP CONSTRAINT commission_rules_payer_check`);
    await q.query(
      `ALTER TABLE commission_rules ADD CONSTRAINT commission_rules_payer_check CHECK (payer IN ('sender', 'recipient', 'shared'))`,
    );
    await q.query(`ALTER TABLE commission_profiles ADD COLUMN destination_issuer_id uuid REFERENCES issuers(id)`);
    await q.query(`ALTER TABLE commission_profiles ADD CONSTRAINT commission_profiles_destination_check
                     CHECK (destination_issuer_id IS NULL OR (flow = 'exchange' AND destination_issuer_id <> issuer_id))`);
    await q.query(`ALTER TABLE commission_profiles DROP CONSTRAINT commission_profiles_contract_id_flow_issuer_id_key`);
    await q.query(`CREATE UNIQUE INDEX commission_profiles_contract_flow_issuers_key
                     ON commission_profiles (contract_id, flow, issuer_id, COALESCE(destination_issuer_id, ${NO_ISSUER}))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM commission_profiles WHERE destination_issuer_id IS NOT NULL`);
    await q.query(`DROP INDEX commission_profiles_contract_flow_issuers_key`);
    await q.query(
      `ALTER TABLE commission_profiles ADD CONSTRAINT commission_profiles_contract_id_flow_issuer_id_key UNIQUE (contract_id, flow, issuer_id)`,
    );
    await q.query(`ALTER TABLE commission_profiles DROP COLUMN destination_issuer_id`);
    await q.query(`DELETE FROM commission_rules WHERE payer = 'shared'`);
    await q.query(`ALTER TABLE commission_rules DROP CONSTRAINT commission_rules_payer_check`);
    await q.query(`ALTER TABLE commission_rules ADD CONSTRAINT commission_rules_payer_check CHECK (payer IN ('sender', 'recipient'))`);
  }
}
