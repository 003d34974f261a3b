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
  address: string | null;
  challenge_hash: Buffer | null;
}

const COLUMNS = 'id, purpose, target, code_hash, payload, delivered, expires_at, address, challenge_hash';

/** one_time_codes and the per-login streaks of wrong codes (an address's counts are the kernel's rate limiter's). */
@Injectable()
export class OneTimeCodesRepository {
  constructor(private readonly db: Database) {}

  /** Serializes the issuing and checking of one login's codes (transaction-scoped). */
  async lockTarget(target: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtextextended('one_time_codes:' || $1, 0))`, [target]);
  }

  /**
   * Seconds since the login's last code of this purpose asked from `address`, and how many codes (of any purpose) the
   * address asked for the login in the last hour: a login's budgets are each asking address's own. A code whose message
   * could not be delivered (issue 46) counts in neither.
   */
  async recent(purpose: CodePurpose, target: string, address: string): Promise<{ since: number | null; lastHour: number }> {
    const [row] = await this.db.query<{ since: number | null; last_hour: number }>(
      `SELECT EXTRACT(EPOCH FROM now() - max(created_at) FILTER (WHERE purpose = $2))::float8 AS since, count(*)::int AS last_hour
         FROM one_time_codes WHERE target = $1 AND address = $3 AND NOT undelivered AND created_at > now() - interval '1 hour'`,
      [target, purpose, address],
    );
    return { since: row.since, lastHour: row.last_hour };
  }

  /**
   * The code a guess from `address` is compared with: the login's newest live code of this purpose asked from that
   * address, else its newest live code of this purpose (asked from another address: a phone's network may change
   * between the two steps). One code per guess, locked.
   */
  async candidate(purpose: CodePurpose, target: string, address: string): Promise<CodeRow | undefined> {
    const [row] = await this.db.query<CodeRow>(
      `SELECT ${COLUMNS} FROM one_time_codes
        WHERE purpose = $1 AND target = $2 AND spent_at IS NULL
        ORDER BY COALESCE(address = $3, false) DESC, created_at DESC LIMIT 1 FOR UPDATE`,
      [purpose, target, address],
    );
    return row;
  }

  /** The login's newest code of this purpose not used nor burnt, whichever address asked for it, locked. */
  async newestLive(purpose: CodePurpose, target: string): Promise<CodeRow | undefined> {
    const [row] = await this.db.query<CodeRow>(
      `SELECT ${COLUMNS} FROM one_time_codes
        WHERE purpose = $1 AND target = $2 AND spent_at IS NULL ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
      [purpose, target],
    );
    return row;
  }

  /** The live login code of a challenge (by the challenge's keyed hash), locked. */
  async ofChallenge(target: string, challengeHash: Buffer): Promise<CodeRow | undefined> {
    const [row] = await this.db.query<CodeRow>(
      `SELECT ${COLUMNS} FROM one_time_codes
        WHERE purpose = 'login' AND target = $1 AND challenge_hash = $2 AND spent_at IS NULL FOR UPDATE`,
      [target, challengeHash],
    );
    return row;
  }

  /** The newest live login code of a challenge passed at `address` (or resent from it), locked. */
  async challengeAt(target: string, address: string): Promise<CodeRow | undefined> {
    const [row] = await this.db.query<CodeRow>(
      `SELECT ${COLUMNS} FROM one_time_codes
        WHERE purpose = 'login' AND target = $1 AND address = $2 AND challenge_hash IS NOT NULL AND spent_at IS NULL
        ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
      [target, address],
    );
    return row;
  }

  /**
   * Stores a code; a delivered one replaces the live codes of its purpose for the login asked from the same address,
   * and those of its challenge (a resend). `expiresAt` (a resent login code keeps its challenge's end) or else `ttlSeconds` from now.
   */
  async insert(code: {
    id: string;
    purpose: CodePurpose;
    target: string;
    codeHash: Buffer;
    payload: Record<string, unknown>;
    delivered: boolean;
    address: string;
    challengeHash: Buffer | null;
    expiresAt: Date | null;
    ttlSeconds: number;
  }): Promise<Date> {
    // A stand-in replaces nothing: asked from the owner's own address, it must not void their code.
    await this.db.query(
      `UPDATE one_time_codes SET spent_at = now(), spent_reason = 'replaced'
        WHERE $5::boolean AND purpose = $1 AND target = $2 AND spent_at IS NULL AND (address = $3 OR challenge_hash = $4)`,
      [code.purpose, code.target, code.address, code.challengeHash, code.delivered],
    );
    const [row] = await this.db.query<{ expires_at: Date }>(
      `INSERT INTO one_time_codes (id, purpose, target, code_hash, payload, delivered, address, challenge_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9::timestamptz, now() + make_interval(secs => $10))) RETURNING expires_at`,
      [
        code.id,
        code.purpose,
        code.target,
        code.codeHash,
        JSON.stringify(code.payload),
        code.delivered,
        code.address,
        code.challengeHash,
        code.expiresAt,
        code.ttlSeconds,
      ],
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

  /**
   * Burns every live code sent to the login, and the user's own pending changes of login (a hold, a deactivation, a
   * release: a code asked before must not undo them). Answers how many.
   */
  async revoke(target: string, userId: string): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE one_time_codes SET spent_at = now(), spent_reason = 'revoked'
        WHERE spent_at IS NULL AND (target = $1 OR (purpose = 'contact_change' AND payload->>'userId' = $2::text)) RETURNING id`,
      [target, userId],
    );
    return rows.length;
  }

  /** Seconds since the login's codes of this purpose were stopped, or undefined when they never were (or were released). */
  async lockedSince(target: string, purpose: CodePurpose): Promise<number | undefined> {
    const [row] = await this.db.query<{ since: number }>(
      `SELECT EXTRACT(EPOCH FROM now() - locked_at)::float8 AS since FROM one_time_code_failures
        WHERE target = $1 AND purpose = $2 AND locked_at IS NOT NULL`,
      [target, purpose],
    );
    return row?.since;
  }

  /**
   * Counts a wrong code toward the login's streak of this purpose; the one reaching `limit` stops its codes
   * (`locked_at`) and starts the streak again from 0. Answers true when this failure stopped them.
   */
  async countStreak(target: string, purpose: CodePurpose, limit: number): Promise<boolean> {
    const [row] = await this.db.query<{ locked_now: boolean }>(
      `INSERT INTO one_time_code_failures AS f (target, purpose, consecutive, locked_at)
       VALUES ($1, $2, CASE WHEN $3 <= 1 THEN 0 ELSE 1 END, CASE WHEN $3 <= 1 THEN now() END)
       ON CONFLICT (target, purpose) DO UPDATE
         SET consecutive = CASE WHEN f.consecutive + 1 >= $3 THEN 0 ELSE f.consecutive + 1 END,
             locked_at = CASE WHEN f.consecutive + 1 >= $3 THEN now() ELSE f.locked_at END
       RETURNING f.consecutive = 0 AS locked_now`,
      [target, purpose, limit],
    );
    return row.locked_now;
  }

  /** A right code ends the login's streak of this purpose. */
  async endStreak(target: string, purpose: CodePurpose): Promise<void> {
    await this.db.query(`DELETE FROM one_time_code_failures WHERE target = $1 AND purpose = $2`, [target, purpose]);
  }

  /** The login's stops, of each purpose stopped at some time (the caller judges which still hold), with the seconds since. */
  async locks(target: string): Promise<{ purpose: CodePurpose; since: number }[]> {
    return this.db.query<{ purpose: CodePurpose; since: number }>(
      `SELECT purpose, EXTRACT(EPOCH FROM now() - locked_at)::float8 AS since FROM one_time_code_failures
        WHERE target = $1 AND locked_at IS NOT NULL`,
      [target],
    );
  }

  /** An administrator's release: the login's streaks and stops of every purpose end. */
  async release(target: string): Promise<void> {
    await this.db.query(`DELETE FROM one_time_code_failures WHERE target = $1`, [target]);
  }
}
