import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import type { CodePurpose } from './one-time-codes.types';

export interface CodeRow {
  id: string;
  purpose: CodePurpose;
  target: string;
  code_hash: Buffer;
  payload: Record<string, unknown>;
  delivered: boolean;
  expires_at: Date;
}

const COLUMNS = 'id, purpose, target, code_hash, payload, delivered, expires_at';

@Injectable()
export class OneTimeCodesRepository {
  constructor(private readonly db: Database) {}

  /** Serializes the issuing and checking of one login's codes (transaction-scoped). */
  async lockTarget(target: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtextextended('one_time_codes:' || $1, 0))`, [target]);
  }

  /** Seconds since the login's last code of this purpose, and how many codes (of any purpose) it got in the last hour. */
  async recent(purpose: CodePurpose, target: string): Promise<{ since: number | null; lastHour: number }> {
    const [row] = await this.db.query<{ since: number | null; last_hour: number }>(
      `SELECT EXTRACT(EPOCH FROM now() - max(created_at) FILTER (WHERE purpose = $2))::float8 AS since, count(*)::int AS last_hour
         FROM one_time_codes WHERE target = $1 AND created_at > now() - interval '1 hour'`,
      [target, purpose],
    );
    return { since: row.since, lastHour: row.last_hour };
  }

  /** The login's newest code of this purpose not used nor burnt (replaced ones are never the newest), locked. */
  async newest(purpose: CodePurpose, target: string): Promise<CodeRow | undefined> {
    const [row] = await this.db.query<CodeRow>(
      `SELECT ${COLUMNS} FROM one_time_codes
        WHERE purpose = $1 AND target = $2 AND spent_at IS NULL ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
      [purpose, target],
    );
    return row;
  }

  async insert(code: {
    id: string;
    purpose: CodePurpose;
    target: string;
    codeHash: Buffer;
    payload: Record<string, unknown>;
    delivered: boolean;
    ttlSeconds: number;
  }): Promise<Date> {
    await this.db.query(
      `UPDATE one_time_codes SET spent_at = now(), spent_reason = 'replaced' WHERE purpose = $1 AND target = $2 AND spent_at IS NULL`,
      [code.purpose, code.target],
    );
    const [row] = await this.db.query<{ expires_at: Date }>(
      `INSERT INTO one_time_codes (id, purpose, target, code_hash, payload, delivered, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7)) RETURNING expires_at`,
      [code.id, code.purpose, code.target, code.codeHash, JSON.stringify(code.payload), code.delivered, code.ttlSeconds],
    );
    return row.expires_at;
  }

  async use(id: string): Promise<void> {
    await this.db.query(`UPDATE one_time_codes SET spent_at = now(), spent_reason = 'used' WHERE id = $1`, [id]);
  }

  /** Counts a wrong code; the one reaching `maxAttempts` is burnt. */
  async countFailure(id: string, maxAttempts: number): Promise<void> {
    await this.db.query(
      `UPDATE one_time_codes SET failed_attempts = failed_attempts + 1,
              spent_at = CASE WHEN failed_attempts + 1 >= $2 THEN now() END,
              spent_reason = CASE WHEN failed_attempts + 1 >= $2 THEN 'burnt' END
        WHERE id = $1`,
      [id, maxAttempts],
    );
  }
}
