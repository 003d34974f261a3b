import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A group of postings writes its shared coins' balances last, on the rows as they are then (LedgerRepository.writeShared):
 * a coin a plan said must stay funded (an exchange's reserve) that would now go below zero fails that statement, and the
 * group's transaction with it (its postings are then posted one by one, each on the coin locked). This is the failure:
 * a check_violation that names the coin.
 */
export class LedgerOverdrawn1763804570000 implements MigrationInterface {
  name = 'LedgerOverdrawn1763804570000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION ledger_overdrawn(serial bigint) RETURNS numeric LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'coin % would be overdrawn: its available funds changed since the group read them', serial
          USING ERRCODE = 'check_violation';
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION ledger_overdrawn(bigint)`);
  }
}
