import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One-time codes (issue 31): sign-up, login confirmation, password recovery and change of login. A code is kept
 * only as a keyed hash; `delivered` is false for the stand-ins issued where no code may be sent (an existing login
 * signing up, an unknown login recovering), so the answers and the rate limits are the same either way. Rows stay
 * after use: the per-login hourly limit counts them.
 */
export class OneTimeCodes1763802300000 implements MigrationInterface {
  name = 'OneTimeCodes1763802300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE one_time_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        purpose text NOT NULL CHECK (purpose IN ('registration', 'login', 'password_recovery', 'contact_change')),
        target text NOT NULL,
        code_hash bytea NOT NULL,
        payload jsonb NOT NULL DEFAULT '{}',
        delivered boolean NOT NULL,
        failed_attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        spent_at timestamptz,
        spent_reason text CHECK (spent_reason IN ('used', 'burnt', 'replaced'))
      )`);
    await q.query(`CREATE INDEX one_time_codes_target ON one_time_codes (target, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE one_time_codes`);
  }
}
