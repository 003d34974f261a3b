import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users deactivated by staff (the family client's activate/deactivate and delete): a deactivated user keeps their
 * row, money and history but cannot log in. `down` forgets who was deactivated (they can log in again).
 */
export class UserDeactivation1763803400000 implements MigrationInterface {
  name = 'UserDeactivation1763803400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN deactivated_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN deactivated_at`);
  }
}
