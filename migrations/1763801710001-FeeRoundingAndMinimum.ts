import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A commission value says how its fee rounds to the currency's decimals — `half_up` (what every fee did so far, the
 * default) or `up` (away from zero) — and may carry a minimum fee (never negative, never on a `zero` commission), in
 * the conditions of internal commission rules and in gate provider and product rules alike.
 */
export class FeeRoundingAndMinimum1763801710001 implements MigrationInterface {
  name = 'FeeRoundingAndMinimum1763801710001';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['commission_conditions', 'gate_commission_rules']) {
      await q.query(
        `ALTER TABLE ${table}
           ADD COLUMN rounding text NOT NULL DEFAULT 'half_up' CONSTRAINT ${table}_rounding_check CHECK (rounding IN ('half_up', 'up')),
           ADD COLUMN min_fee numeric(38, 18),
           ADD CONSTRAINT ${table}_min_fee_check CHECK (min_fee IS NULL OR (min_fee >= 0 AND type <> 'zero'))`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['commission_conditions', 'gate_commission_rules']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN min_fee, DROP COLUMN rounding`);
    }
  }
}
