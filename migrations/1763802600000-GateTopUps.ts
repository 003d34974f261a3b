import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Gate transactions of type `TOPUP` (the family's name): money in through a provider method — the provider charges
 * the payer's card and the issuer's gate-settlement coin credits the payer's coin. `down` forgets those transactions
 * (their ledger operations stay, as every operation does) and restores the former list of types.
 */
export class GateTopUps1763802600000 implements MigrationInterface {
  name = 'GateTopUps1763802600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gate_transactions DROP CONSTRAINT gate_transactions_type_check`);
    await q.query(
      `ALTER TABLE gate_transactions ADD CONSTRAINT gate_transactions_type_check CHECK (type IN ('payment','payout','card_issue','TOPUP'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM gate_transactions WHERE type = 'TOPUP'`);
    await q.query(`ALTER TABLE gate_transactions DROP CONSTRAINT gate_transactions_type_check`);
    await q.query(
      `ALTER TABLE gate_transactions ADD CONSTRAINT gate_transactions_type_check CHECK (type IN ('payment','payout','card_issue'))`,
    );
  }
}
