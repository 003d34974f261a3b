import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Gate transactions of type `REDEEM` (the family's name): money out to a card through a payout provider's method —
 * a payout that waits for its payer's fields. `down` forgets those transactions (their ledger operations stay, as
 * every operation does) and restores the former list of types.
 */
export class GateRedeems1763803000000 implements MigrationInterface {
  name = 'GateRedeems1763803000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gate_transactions DROP CONSTRAINT gate_transactions_type_check`);
    await q.query(
      `ALTER TABLE gate_transactions ADD CONSTRAINT gate_transactions_type_check CHECK (type IN ('payment','payout','card_issue','TOPUP','REDEEM'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM gate_transactions WHERE type = 'REDEEM'`);
    await q.query(`ALTER TABLE gate_transactions DROP CONSTRAINT gate_transactions_type_check`);
    await q.query(
      `ALTER TABLE gate_transactions ADD CONSTRAINT gate_transactions_type_check CHECK (type IN ('payment','payout','card_issue','TOPUP'))`,
    );
  }
}
