import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A ledger entry's currency and organization are its coin's, and the database now says so: one foreign key
 * `(coin_serial, currency_id, organization_id) → coins` replaces the three single-column keys to coins,
 * currencies and organizations. It is stronger (an entry can no longer name a currency or organization other
 * than its coin's) and cheaper: each single-column key took a `FOR KEY SHARE` row lock per entry on its parent,
 * and every transfer of a currency locked the one `currencies` row twice, so concurrent transfers built
 * multixacts on it; the composite key is checked on the coin row the posting already holds `FOR UPDATE`.
 *
 * The unique key it needs replaces `coins_organization_idx (organization_id, serial)` with
 * `(organization_id, serial, currency_id)`: the same lookups by organization, no extra index. Coins never change
 * organization or currency.
 */
export class LedgerEntryCoinKey1763801660000 implements MigrationInterface {
  name = 'LedgerEntryCoinKey1763801660000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE UNIQUE INDEX coins_organization_key ON coins (organization_id, serial, currency_id)`);
    await q.query(`DROP INDEX coins_organization_idx`);
    await q.query(`ALTER INDEX coins_organization_key RENAME TO coins_organization_idx`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_coin_fkey FOREIGN KEY (coin_serial, currency_id, organization_id)
         REFERENCES coins (serial, currency_id, organization_id)`,
    );
    await q.query(
      `ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_coin_serial_fkey, DROP CONSTRAINT ledger_entries_currency_id_fkey,
         DROP CONSTRAINT ledger_entries_organization_id_fkey`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_coin_serial_fkey FOREIGN KEY (coin_serial) REFERENCES coins (serial),
         ADD CONSTRAINT ledger_entries_currency_id_fkey FOREIGN KEY (currency_id) REFERENCES currencies (id),
         ADD CONSTRAINT ledger_entries_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id)`,
    );
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_coin_fkey`);
    await q.query(`DROP INDEX coins_organization_idx`);
    await q.query(`CREATE INDEX coins_organization_idx ON coins (organization_id, serial)`);
  }
}
