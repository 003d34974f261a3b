import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Gate commission profiles as the family's contracts screen has them: one per contract, provider and currency (a
 * profile without a currency, as before, holds for every currency), and their commission settings per transaction
 * type (TOPUP, REDEEM): the TOTAL commission the payer pays and the PROVIDER commission the provider charges the
 * operator out of it. `down` forgets the settings and the profiles with a currency (their rules with them).
 */
export class GateCommissionSettings1763803300000 implements MigrationInterface {
  name = 'GateCommissionSettings1763803300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gate_commission_profiles ADD COLUMN currency_id uuid REFERENCES currencies(id)`);
    await q.query(`ALTER TABLE gate_commission_profiles ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`ALTER TABLE gate_commission_profiles DROP CONSTRAINT gate_commission_profiles_contract_id_gate_provider_id_key`);
    await q.query(
      `ALTER TABLE gate_commission_profiles ADD CONSTRAINT gate_commission_profiles_contract_provider_currency_key
         UNIQUE NULLS NOT DISTINCT (contract_id, gate_provider_id, currency_id)`,
    );
    await q.query(`
      CREATE TABLE gate_commission_settings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        profile_id uuid NOT NULL REFERENCES gate_commission_profiles(id) ON DELETE CASCADE,
        tx_type text NOT NULL CHECK (tx_type IN ('TOPUP','REDEEM')),
        collector text NOT NULL CHECK (collector IN ('TOTAL','PROVIDER')),
        type text NOT NULL CHECK (type IN ('zero','percent','fixed','greater_of_fixed_or_percent','lesser_of_fixed_or_percent','fixed_and_percent')),
        value_percent numeric(38,18) CHECK (value_percent >= 0 AND value_percent <= 100),
        value_fixed numeric(38,18) CHECK (value_fixed >= 0),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (profile_id, tx_type, collector)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gate_commission_settings`);
    await q.query(`DELETE FROM gate_commission_profiles WHERE currency_id IS NOT NULL`);
    await q.query(`ALTER TABLE gate_commission_profiles DROP CONSTRAINT gate_commission_profiles_contract_provider_currency_key`);
    await q.query(
      `ALTER TABLE gate_commission_profiles ADD CONSTRAINT gate_commission_profiles_contract_id_gate_provider_id_key UNIQUE (contract_id, gate_provider_id)`,
    );
    await q.query(`ALTER TABLE gate_commission_profiles DROP COLUMN updated_at`);
    await q.query(`ALTER TABLE gate_commission_profiles DROP COLUMN currency_id`);
  }
}
