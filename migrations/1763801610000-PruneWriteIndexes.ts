import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every index on the write path earns its keep (test/indexes.e2e.spec.ts names the endpoint query each one serves).
 * A transfer wrote 16 index entries (eight on `operations`, four per ledger entry); now 11:
 *
 * - `reversal_of` was UNIQUE over every row (NULLs included, so every operation wrote it) beside a partial index
 *   for the lookups: one partial unique index now does both, written only by reversals.
 * - `type`, `status` and `currency_id` had an index each, for staff filters only (members' searches walk the
 *   participation indexes): one index `(type, status, currency_id)` serves all three (a B-tree skip scan where
 *   the leading columns are not filtered), and ordering by date comes from `operations_created_idx`.
 * - `ledger_entries` had a surrogate primary key beside `(operation_id)`: the key is now `(operation_id, leg,
 *   coin_serial)` (a leg moves money between two different coins), which is also what finds an operation's entries.
 *   `id` stays as the entries' order within a coin (`ledger_entries_coin_idx`).
 */
export class PruneWriteIndexes1763801610000 implements MigrationInterface {
  name = 'PruneWriteIndexes1763801610000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE operations DROP CONSTRAINT operations_reversal_of_key`);
    await q.query(`DROP INDEX operations_reversal_of_idx`);
    await q.query(`CREATE UNIQUE INDEX operations_reversal_of_idx ON operations (reversal_of) WHERE reversal_of IS NOT NULL`);
    await q.query(`DROP INDEX operations_type_idx, operations_status_idx, operations_currency_idx`);
    await q.query(`CREATE INDEX operations_kind_idx ON operations (type, status, currency_id)`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_pkey`);
    await q.query(`DROP INDEX ledger_entries_operation_idx`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_pkey PRIMARY KEY (operation_id, leg, coin_serial)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_pkey`);
    await q.query(`CREATE INDEX ledger_entries_operation_idx ON ledger_entries (operation_id)`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_pkey PRIMARY KEY (id)`);
    await q.query(`DROP INDEX operations_kind_idx`);
    await q.query(`CREATE INDEX operations_type_idx ON operations (type, created_at DESC)`);
    await q.query(`CREATE INDEX operations_status_idx ON operations (status, created_at DESC)`);
    await q.query(`CREATE INDEX operations_currency_idx ON operations (currency_id, created_at DESC)`);
    await q.query(`DROP INDEX operations_reversal_of_idx`);
    await q.query(`CREATE INDEX operations_reversal_of_idx ON operations (reversal_of) WHERE reversal_of IS NOT NULL`);
    await q.query(`ALTER TABLE operations ADD CONSTRAINT operations_reversal_of_key UNIQUE (reversal_of)`);
  }
}
