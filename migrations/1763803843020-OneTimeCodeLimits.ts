import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 43: one-time codes against guessing and lock-outs.
 *
 * - `one_time_codes.address`: the client address that asked for the code. A login's budgets (the cooldown and the
 *   hourly count) are counted per asking address, so others cannot use up the owner's; a new code replaces only the
 *   live codes asked from the same address (or of the same challenge). Rows from before have none: they count for no one.
 * - `one_time_codes.challenge_hash`: a login code's challenge, the secret the password step answered (`challengeId`),
 *   kept only as a keyed hash; the confirmation must carry it (or come from the address of the password step).
 * - `spent_reason` `revoked`: burnt by a hold, a deactivation or a release.
 * - `one_time_code_failures`: consecutive wrong codes per login and purpose, from any address; at the limit the login's
 *   codes of that purpose stop (`locked_at`) until ONE_TIME_CODE_LOCK_SECONDS pass or an administrator releases the user.
 */
export class OneTimeCodeLimits1763803843020 implements MigrationInterface {
  name = 'OneTimeCodeLimits1763803843020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE one_time_codes ADD COLUMN address text, ADD COLUMN challenge_hash bytea`);
    await q.query(`ALTER TABLE one_time_codes DROP CONSTRAINT one_time_codes_spent_reason_check`);
    await q.query(
      `ALTER TABLE one_time_codes ADD CONSTRAINT one_time_codes_spent_reason_check
         CHECK (spent_reason IN ('used', 'burnt', 'replaced', 'revoked'))`,
    );
    await q.query(`
      CREATE TABLE one_time_code_failures (
        target text NOT NULL,
        purpose text NOT NULL CHECK (purpose IN ('registration', 'login', 'password_recovery', 'contact_change')),
        consecutive integer NOT NULL,
        locked_at timestamptz,
        PRIMARY KEY (target, purpose)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE one_time_code_failures`);
    await q.query(`UPDATE one_time_codes SET spent_reason = 'burnt' WHERE spent_reason = 'revoked'`);
    await q.query(`ALTER TABLE one_time_codes DROP CONSTRAINT one_time_codes_spent_reason_check`);
    await q.query(
      `ALTER TABLE one_time_codes ADD CONSTRAINT one_time_codes_spent_reason_check CHECK (spent_reason IN ('used', 'burnt', 'replaced'))`,
    );
    await q.query(`ALTER TABLE one_time_codes DROP COLUMN challenge_hash, DROP COLUMN address`);
  }
}
