import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

/** A due date's run as recorded. */
export interface ScheduledRunRow {
  job: string;
  subject: string;
  due_date: string;
  status: 'processed' | 'failed';
  operation_id: string | null;
  error_code: string | null;
  error_message: string | null;
  ran_at: Date;
}

/** The run records (`scheduled_runs`), written inside the transaction of the run they record. */
@Injectable()
export class SchedulerRepository {
  constructor(private readonly db: Database) {}

  /**
   * Records a run of (job, subject, due date); false when one is recorded already. A concurrent claim of the same due
   * date waits here for the other transaction: after its commit this one finds the row, after its rollback takes it.
   */
  async claim(
    job: string,
    subject: string,
    dueDate: string,
    outcome: { operationId?: string | null; errorCode?: string; errorMessage?: string },
  ): Promise<boolean> {
    const rows = await this.db.query<{ job: string }>(
      `INSERT INTO scheduled_runs (job, subject, due_date, status, operation_id, error_code, error_message)
       VALUES ($1, $2, $3::date, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING job`,
      [
        job,
        subject,
        dueDate,
        outcome.errorCode ? 'failed' : 'processed',
        outcome.operationId ?? null,
        outcome.errorCode ?? null,
        outcome.errorMessage?.slice(0, 500) ?? null,
      ],
    );
    return rows.length > 0;
  }

  async setOperation(job: string, subject: string, dueDate: string, operationId: string): Promise<void> {
    await this.db.query(`UPDATE scheduled_runs SET operation_id = $4 WHERE job = $1 AND subject = $2 AND due_date = $3::date`, [
      job,
      subject,
      dueDate,
      operationId,
    ]);
  }

  /** The latest run of each subject of a job. */
  async latest(job: string, subjects: string[]): Promise<Map<string, ScheduledRunRow>> {
    if (!subjects.length) return new Map();
    const rows = await this.db.query<ScheduledRunRow>(
      `SELECT DISTINCT ON (subject) job, subject::text AS subject, to_char(due_date, 'YYYY-MM-DD') AS due_date, status,
              operation_id::text AS operation_id, error_code, error_message, ran_at
         FROM scheduled_runs WHERE job = $1 AND subject = ANY($2::uuid[]) ORDER BY subject, due_date DESC`,
      [job, subjects],
    );
    return new Map(rows.map((r) => [r.subject, r]));
  }
}
