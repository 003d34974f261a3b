import { MigrationInterface, QueryRunner } from 'typeorm';

const BEFORE = `'registration', 'login', 'password_recovery', 'contact_change', 'contact_change_owner', 'contact_restore'`;

/**
 * Issue 46, item 3: a user who turned two-step login on turns it off only with a code sent to their login
 * (`two_factor_off`); its codes and streaks of wrong codes are of a purpose of their own.
 */
export class TwoFactorOffCodes1763804530000 implements MigrationInterface {
  name = 'TwoFactorOffCodes1763804530000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['one_time_codes', 'one_time_code_failures']) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_purpose_check`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_purpose_check CHECK (purpose IN (${BEFORE}, 'two_factor_off'))`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['one_time_code_failures', 'one_time_codes']) {
      await q.query(`DELETE FROM ${table} WHERE purpose = 'two_factor_off'`);
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_purpose_check`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_purpose_check CHECK (purpose IN (${BEFORE}))`);
    }
  }
}
