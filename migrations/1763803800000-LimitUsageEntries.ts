import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each operation counted against each limit (issue 43): one row per operation, limit and period, written in the
 * transaction that counts it (beside the running sum in `limit_usage`, which it references), so that a decline, a
 * refusal, a provider's failure, a voucher's return or a reversal gives back exactly that, to the period it was counted
 * in, once (`given_back_at`).
 *
 * Usage counted before this migration has no rows here: it stays counted, and an operation counted then gives nothing
 * back when it is later declined or reversed (see the CHANGELOG).
 */
export class LimitUsageEntries1763803800000 implements MigrationInterface {
  name = 'LimitUsageEntries1763803800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE limit_usage_entries (
        operation_id uuid NOT NULL REFERENCES operations(id),
        limit_profile_id uuid NOT NULL,
        organization_id uuid NOT NULL,
        period_start timestamp NOT NULL,
        amount numeric(38,18) NOT NULL CHECK (amount >= 0),
        count integer NOT NULL CHECK (count > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        given_back_at timestamptz,
        PRIMARY KEY (operation_id, limit_profile_id, period_start),
        FOREIGN KEY (limit_profile_id, organization_id, period_start)
          REFERENCES limit_usage (limit_profile_id, organization_id, period_start) ON DELETE CASCADE
      )`);
    // The foreign key's other side: a limit's usage row is found (or removed, with its limit) by its key.
    await q.query(`CREATE INDEX limit_usage_entries_usage ON limit_usage_entries (limit_profile_id, organization_id, period_start)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE limit_usage_entries`);
  }
}
