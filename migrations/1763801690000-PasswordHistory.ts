import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bcrypt hashes of the last passwords each user chose (issue 29): a new password may not be one of them, so a
 * user released from On Hold cannot simply set back the password that was being guessed. Temporary passwords are
 * never kept. Seeded with each user's current password unless it is a temporary one.
 */
export class PasswordHistory1763801690000 implements MigrationInterface {
  name = 'PasswordHistory1763801690000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE password_history (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX password_history_user_idx ON password_history (user_id, id)`);
    await q.query(
      `INSERT INTO password_history (user_id, password_hash, created_at)
       SELECT id, password_hash, updated_at FROM users WHERE NOT password_change_required ORDER BY created_at, id`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE password_history`);
  }
}
