import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An export of a user's history (`POST /data-export/init`): what they asked for, kept so the file can be fetched
 * later. The range's end is fixed when the export starts, so every fetch of the file answers the same entries.
 */
export class DataExports1763802400001 implements MigrationInterface {
  name = 'DataExports1763802400001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE data_exports (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        filter jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX data_exports_user_idx ON data_exports (user_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE data_exports`);
  }
}
