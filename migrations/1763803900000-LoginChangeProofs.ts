import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 43, items 1 and 4: a login changes only when the new address and the owner prove themselves. Two purposes of
 * one-time codes join: `contact_change_owner`, the code a change sends to the current login (the owner's proof when
 * they give no password), and `contact_restore`, the code the old address gets once the login changed, which takes it
 * back. Existing rows keep their purposes. The streaks of wrong codes (`one_time_code_failures`) count them too.
 */
export class LoginChangeProofs1763803900000 implements MigrationInterface {
  name = 'LoginChangeProofs1763803900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE one_time_codes DROP CONSTRAINT one_time_codes_purpose_check`);
    await q.query(
      `ALTER TABLE one_time_codes ADD CONSTRAINT one_time_codes_purpose_check
         CHECK (purpose IN ('registration', 'login', 'password_recovery', 'contact_change', 'contact_change_owner', 'contact_restore'))`,
    );
    await q.query(`ALTER TABLE one_time_code_failures DROP CONSTRAINT one_time_code_failures_purpose_check`);
    await q.query(
      `ALTER TABLE one_time_code_failures ADD CONSTRAINT one_time_code_failures_purpose_check
         CHECK (purpose IN ('registration', 'login', 'password_recovery', 'contact_change', 'contact_change_owner', 'contact_restore'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM one_time_code_failures WHERE purpose IN ('contact_change_owner', 'contact_restore')`);
    await q.query(`ALTER TABLE one_time_code_failures DROP CONSTRAINT one_time_code_failures_purpose_check`);
    await q.query(
      `ALTER TABLE one_time_code_failures ADD CONSTRAINT one_time_code_failures_purpose_check
         CHECK (purpose IN ('registration', 'login', 'password_recovery', 'contact_change'))`,
    );
    await q.query(`DELETE FROM one_time_codes WHERE purpose IN ('contact_change_owner', 'contact_restore')`);
    await q.query(`ALTER TABLE one_time_codes DROP CONSTRAINT one_time_codes_purpose_check`);
    await q.query(
      `ALTER TABLE one_time_codes ADD CONSTRAINT one_time_codes_purpose_check
         CHECK (purpose IN ('registration', 'login', 'password_recovery', 'contact_change'))`,
    );
  }
}
