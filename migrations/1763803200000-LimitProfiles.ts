import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Limit profiles: per commission profile (or gate commission profile and its transaction type), a cap on the amount
 * of one operation, or on the amount or the number of operations in a period (UTC), for each organization the
 * contract serves. `limit_usage` is the running sum per limit, organization and period, locked by the posting that
 * adds to it, so concurrent operations never pass a limit together.
 */
export class LimitProfiles1763803200000 implements MigrationInterface {
  name = 'LimitProfiles1763803200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE limit_profiles (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        commission_profile_id uuid REFERENCES commission_profiles(id) ON DELETE CASCADE,
        gate_commission_profile_id uuid REFERENCES gate_commission_profiles(id) ON DELETE CASCADE,
        tx_type text CHECK (tx_type IN ('TOPUP','REDEEM')),
        qualifier text NOT NULL CHECK (qualifier IN ('amount','quantity')),
        time_unit text NOT NULL
          CHECK (time_unit IN ('per_transaction','per_day','per_week','per_month','per_quarter','per_year','per_life')),
        value numeric(38,18) NOT NULL CHECK (value >= 0),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((commission_profile_id IS NULL) <> (gate_commission_profile_id IS NULL)),
        CHECK ((gate_commission_profile_id IS NULL) = (tx_type IS NULL)),
        CHECK (qualifier = 'amount' OR (time_unit <> 'per_transaction' AND value = trunc(value)))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX limit_profiles_commission_key ON limit_profiles (commission_profile_id, qualifier, time_unit)
        WHERE commission_profile_id IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX limit_profiles_gate_key ON limit_profiles (gate_commission_profile_id, tx_type, qualifier, time_unit)
        WHERE gate_commission_profile_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE limit_usage (
        limit_profile_id uuid NOT NULL REFERENCES limit_profiles(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id),
        period_start timestamp NOT NULL,
        amount numeric(38,18) NOT NULL DEFAULT 0 CHECK (amount >= 0),
        count integer NOT NULL DEFAULT 0 CHECK (count >= 0),
        PRIMARY KEY (limit_profile_id, organization_id, period_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE limit_usage`);
    await q.query(`DROP TABLE limit_profiles`);
  }
}
