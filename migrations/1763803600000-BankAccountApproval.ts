import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bank accounts are approved or rejected by compliance: `status` (accounts kept so far stay usable, `APPROVED`), who
 * added the account (`created_by`, filled for earlier accounts with their organization's first member) and who decided
 * it last. `down` forgets the decisions.
 */
export class BankAccountApproval1763803600000 implements MigrationInterface {
  name = 'BankAccountApproval1763803600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE bank_accounts
        ADD COLUMN status text NOT NULL DEFAULT 'APPROVED' CHECK (status IN ('PENDING','APPROVED','REJECTED')),
        ADD COLUMN created_by uuid REFERENCES users(id),
        ADD COLUMN decided_by uuid REFERENCES users(id),
        ADD COLUMN decided_at timestamptz`);
    await q.query(`
      UPDATE bank_accounts b SET created_by = (
        SELECT m.user_id FROM memberships m WHERE m.organization_id = b.organization_id ORDER BY m.created_at, m.id LIMIT 1)`);
    // The compliance screen lists every organization's accounts, the undecided first when filtered by status.
    await q.query(`CREATE INDEX bank_accounts_status_idx ON bank_accounts (status, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX bank_accounts_status_idx`);
    await q.query(`ALTER TABLE bank_accounts DROP COLUMN decided_at, DROP COLUMN decided_by, DROP COLUMN created_by, DROP COLUMN status`);
  }
}
