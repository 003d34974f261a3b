import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The scheduler's run records: one row per (job, subject, due date), written in the transaction that does the run. Its
 * primary key is what makes a due date run at most once across instances: a second instance's insert waits for the
 * first's transaction and then finds the row (or, after a rollback, takes it).
 */
export class ScheduledRuns1763802700000 implements MigrationInterface {
  name = 'ScheduledRuns1763802700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE scheduled_runs (
        job text NOT NULL CHECK (length(job) BETWEEN 1 AND 100),
        subject uuid NOT NULL,
        due_date date NOT NULL,
        status text NOT NULL CHECK (status IN ('processed', 'failed')),
        operation_id uuid REFERENCES operations(id),
        error_code text,
        error_message text,
        ran_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (job, subject, due_date),
        CHECK ((status = 'failed') = (error_code IS NOT NULL))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE scheduled_runs`);
  }
}
