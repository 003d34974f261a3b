import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 45: an operation's record names the invoice it paid (`invoiceIdentifier`) and the point of sale a merchant
 * payment was taken at (`posCompanyName`); a page of history looks both up by its operations' ids.
 */
export class OperationRecordLinks1763804512000 implements MigrationInterface {
  name = 'OperationRecordLinks1763804512000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX invoices_operation_idx ON invoices (operation_id) WHERE operation_id IS NOT NULL`);
    await q.query(`CREATE INDEX merchant_payments_operation_idx ON merchant_payments (operation_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX merchant_payments_operation_idx`);
    await q.query(`DROP INDEX invoices_operation_idx`);
  }
}
