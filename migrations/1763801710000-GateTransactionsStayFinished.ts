import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A gate transaction is finished (`processed`, `failure`) exactly when it has a `finished_at`, and the database now
 * says so. Before, a provider call answering "pending" after a callback had finished the transaction took it back to
 * `pending` with its `finished_at` kept (its operation settled, its hold captured or released): such transactions are
 * first given back the status their operation ended in — processed (or reversed since) → `processed`, released →
 * `failure`. `down` drops the constraint only; the repaired statuses stay (they are the true ones).
 */
export class GateTransactionsStayFinished1763801710000 implements MigrationInterface {
  name = 'GateTransactionsStayFinished1763801710000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE gate_transactions t
          SET status = CASE WHEN o.status IN ('processed', 'reversed') THEN 'processed' ELSE 'failure' END, updated_at = now()
         FROM operations o
        WHERE o.id = t.operation_id AND t.finished_at IS NOT NULL AND t.status NOT IN ('processed', 'failure')
          AND o.status IN ('processed', 'reversed', 'declined', 'error')`,
    );
    // Neither can happen (a finish sets both in one transaction); cleared so that the constraint holds whatever the data.
    await q.query(
      `UPDATE gate_transactions SET finished_at = NULL WHERE finished_at IS NOT NULL AND status NOT IN ('processed', 'failure')`,
    );
    await q.query(`UPDATE gate_transactions SET finished_at = updated_at WHERE finished_at IS NULL AND status IN ('processed', 'failure')`);
    await q.query(
      `ALTER TABLE gate_transactions ADD CONSTRAINT gate_transactions_finished_check
         CHECK ((status IN ('processed', 'failure')) = (finished_at IS NOT NULL))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gate_transactions DROP CONSTRAINT gate_transactions_finished_check`);
  }
}
