import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 45: the individual's invoices tab asks for the invoices it pays (`POST /invoices/view`, `direction: INCOMING`):
 * those addressed to its login (`lower(payer_contact)`) or paid by one of its coins (`paid_by_coin`). Without an index
 * on either, every such search read the whole invoices table; with both, it is a bitmap OR of two index scans
 * (test/indexes.e2e.spec.ts holds the plan on a grown table).
 */
export class InvoicesPayerIndexes1763804340000 implements MigrationInterface {
  name = 'InvoicesPayerIndexes1763804340000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX invoices_payer_contact_idx ON invoices (lower(payer_contact))`);
    await q.query(`CREATE INDEX invoices_paid_by_coin_idx ON invoices (paid_by_coin)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX invoices_paid_by_coin_idx`);
    await q.query(`DROP INDEX invoices_payer_contact_idx`);
  }
}
