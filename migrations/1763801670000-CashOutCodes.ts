import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cash-out consent (issue 29): a customer's one-time cash-out codes, each for one of their coins and an exact
 * amount, kept only as a hash, valid a few minutes, used once, burnt after too many wrong tries against the coin;
 * and the code a cash desk presented for a `cash_out`, without which the desk cannot complete it.
 */
export class CashOutCodes1763801670000 implements MigrationInterface {
  name = 'CashOutCodes1763801670000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE cash_out_codes (
        id uuid PRIMARY KEY,
        coin_serial bigint NOT NULL REFERENCES coins(serial),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        amount numeric(38,18) NOT NULL CHECK (amount > 0),
        code_hash text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
        expires_at timestamptz NOT NULL,
        failed_attempts integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
        burnt_at timestamptz,
        used_at timestamptz,
        created_by uuid NOT NULL REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX cash_out_codes_live_idx ON cash_out_codes (coin_serial) WHERE used_at IS NULL AND burnt_at IS NULL`);
    await q.query(`
      ALTER TABLE cash_desk_operations
        ADD COLUMN cash_out_code_id uuid UNIQUE REFERENCES cash_out_codes(id),
        ADD CONSTRAINT cash_desk_operations_code_check CHECK (cash_out_code_id IS NULL OR type = 'cash_out')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cash_desk_operations DROP COLUMN cash_out_code_id`);
    await q.query(`DROP TABLE cash_out_codes`);
  }
}
