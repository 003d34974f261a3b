import { MigrationInterface, QueryRunner } from 'typeorm';

export class Reversals1763800200000 implements MigrationInterface {
  name = 'Reversals1763800200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO permissions (name, description) VALUES ('TRANSACTION_REVERSER', 'Reverse a completed operation')`);
    await q.query(`INSERT INTO role_permissions (role, permission) VALUES
      ('administrator', 'TRANSACTION_REVERSER'), ('cfo', 'TRANSACTION_REVERSER'), ('accountant', 'TRANSACTION_REVERSER')`);
    await q.query(`CREATE INDEX operations_reversal_of_idx ON operations (reversal_of) WHERE reversal_of IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX operations_reversal_of_idx`);
    await q.query(`DELETE FROM role_permissions WHERE permission = 'TRANSACTION_REVERSER'`);
    await q.query(`DELETE FROM permissions WHERE name = 'TRANSACTION_REVERSER'`);
  }
}
