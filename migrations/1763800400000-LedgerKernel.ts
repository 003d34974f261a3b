import { MigrationInterface, QueryRunner } from 'typeorm';

export class LedgerKernel1763800400000 implements MigrationInterface {
  name = 'LedgerKernel1763800400000';

  async up(q: QueryRunner): Promise<void> {
    // Visibility by participation: each entry carries its coin's organization, and is dated with its operation.
    await q.query(`ALTER TABLE ledger_entries ADD COLUMN organization_id uuid REFERENCES organizations(id)`);
    await q.query(`UPDATE ledger_entries e SET organization_id = c.organization_id, created_at = o.created_at
                     FROM coins c, operations o WHERE c.serial = e.coin_serial AND o.id = e.operation_id`);
    await q.query(`ALTER TABLE ledger_entries ALTER COLUMN organization_id SET NOT NULL`);
    await q.query(`CREATE INDEX ledger_entries_organization_idx ON ledger_entries (organization_id, created_at DESC, operation_id DESC)`);
    // Replaced by the entries' organization: an agent, a cash desk or a merchant in an operation sees it too.
    await q.query(`DROP INDEX operations_from_org_idx`);
    await q.query(`DROP INDEX operations_to_org_idx`);

    // Amounts reserved on a coin by a pending operation; coins.held is the sum of a coin's open holds.
    await q.query(`
      CREATE TABLE holds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        operation_id uuid NOT NULL REFERENCES operations(id),
        coin_serial bigint NOT NULL REFERENCES coins(serial),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        amount numeric(38, 18) NOT NULL CHECK (amount > 0),
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'captured', 'released')),
        created_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz,
        closed_by_operation_id uuid REFERENCES operations(id),
        CHECK ((status = 'open') = (closed_at IS NULL))
      )`);
    await q.query(`CREATE INDEX holds_operation_idx ON holds (operation_id) WHERE status = 'open'`);
    await q.query(`CREATE INDEX holds_organization_idx ON holds (organization_id, created_at DESC, operation_id DESC)`);

    // The operation-type catalogue (src/platform/ledger/operation-types.ts) as CHECKs; the service adds new values at start.
    await q.query(`ALTER TABLE operations ADD CONSTRAINT operations_type_check
                     CHECK (type IN ('transfer', 'bank_top_up', 'coin_closure', 'reversal'))`);
    await q.query(`ALTER TABLE operations ADD CONSTRAINT operations_status_check
                     CHECK (status IN ('completed', 'pending', 'declined', 'reversed'))`);

    // Grants live in code (src/platform/access/permissions.ts); memberships still refer to roles.
    await q.query(`DROP TABLE role_permissions, permissions`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE permissions (name text PRIMARY KEY, description text NOT NULL)`);
    await q.query(`CREATE TABLE role_permissions (
        role text NOT NULL REFERENCES roles(name),
        permission text NOT NULL REFERENCES permissions(name),
        PRIMARY KEY (role, permission))`);
    await q.query(`ALTER TABLE operations DROP CONSTRAINT operations_status_check, DROP CONSTRAINT operations_type_check`);
    await q.query(`DROP TABLE holds`);
    await q.query(`CREATE INDEX operations_from_org_idx ON operations (from_organization_id, created_at DESC)`);
    await q.query(`CREATE INDEX operations_to_org_idx ON operations (to_organization_id, created_at DESC)`);
    await q.query(`DROP INDEX ledger_entries_organization_idx`);
    await q.query(`ALTER TABLE ledger_entries DROP COLUMN organization_id`);
  }
}
