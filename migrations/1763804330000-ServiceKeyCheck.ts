import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 43, item 12: instances on one database that disagree on their key (AUDIT_CHAIN_KEY unset, each with its own
 * DATA_DIR/audit-chain.key) forked the action log's chain and answered every keyed retry that reached the other with
 * `422 key_reused`, silently. The database now keeps a check value of the key it is written with — an HMAC of a fixed
 * label under the key, never the key — written by the first instance that starts (src/platform/user-actions/
 * service-key.ts); every instance compares its own at start and refuses another.
 */
export class ServiceKeyCheck1763804330000 implements MigrationInterface {
  name = 'ServiceKeyCheck1763804330000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE service_key_check (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        check_value text NOT NULL CHECK (check_value ~ '^[0-9a-f]{64}$'),
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE service_key_check`);
  }
}
