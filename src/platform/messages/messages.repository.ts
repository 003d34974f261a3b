import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import type { MessageChannel } from './message.types';

/** What every message has: where it goes and what it says. */
interface MessageHead {
  id: string;
  channel: MessageChannel | null;
  recipient: string;
  kind: 'code' | 'notice';
  template: string;
  locale: string;
  attempts: number;
}

/** A message as a dispatcher claimed it: what to send, where. `secret`: the sealed code (null for a notice). */
export interface ClaimedMessage extends MessageHead {
  details: Record<string, string>;
  secret: Buffer | null;
  code_id: string | null;
  expires_at: Date | null;
}

/** A message as staff see it: never its secret. */
export interface MessageRow extends MessageHead {
  status: 'pending' | 'sent' | 'failed';
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_error: string | null;
  sent_at: Date | null;
  created_at: Date;
}

export interface MessageFilter {
  statuses?: string[];
  channels?: string[];
  recipient?: string;
}

/** messages: the outbox of codes and notices (migration 1763804520000). */
@Injectable()
export class MessagesRepository {
  constructor(private readonly db: Database) {}

  async insert(message: {
    id: string;
    channel: MessageChannel | undefined;
    recipient: string;
    kind: 'code' | 'notice';
    template: string;
    locale: string;
    details: Record<string, string>;
    secret: Buffer | null;
    codeId: string | null;
    expiresAt: Date | null;
  }): Promise<void> {
    // No channel may carry it: it fails at once, its secret never stored.
    const failed = message.channel === undefined;
    await this.db.query(
      `INSERT INTO messages (id, channel, recipient, kind, template, locale, details, secret, code_id, expires_at, status, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12)`,
      [
        message.id,
        message.channel ?? null,
        message.recipient,
        message.kind,
        message.template,
        message.locale,
        JSON.stringify(message.details),
        failed ? null : message.secret,
        message.codeId,
        message.expiresAt,
        failed ? 'failed' : 'pending',
        failed ? 'no configured sender reaches this recipient' : null,
      ],
    );
    if (failed && message.codeId) await this.markUndelivered(message.codeId);
  }

  /**
   * Notices (no secret, no code) in one statement: what a money movement queues for every reader it tells. One no
   * channel reaches is written failed at once, as `insert` does.
   */
  async insertNotices(
    notices: {
      id: string;
      channel: MessageChannel | undefined;
      recipient: string;
      template: string;
      locale: string;
      details: Record<string, string>;
    }[],
  ): Promise<void> {
    if (!notices.length) return;
    await this.db.query(
      `INSERT INTO messages (id, channel, recipient, kind, template, locale, details, status, last_error)
       SELECT n.id, n.channel, n.recipient, 'notice', n.template, n.locale, n.details,
              CASE WHEN n.channel IS NULL THEN 'failed' ELSE 'pending' END,
              CASE WHEN n.channel IS NULL THEN 'no configured sender reaches this recipient' END
         FROM jsonb_to_recordset($1::jsonb) AS n(id uuid, channel text, recipient text, template text, locale text, details jsonb)`,
      [JSON.stringify(notices.map((n) => ({ ...n, channel: n.channel ?? null })))],
    );
  }

  /**
   * Claims up to `limit` due messages. SKIP LOCKED lets instances claim side by side; moving next_attempt_at `leaseMs`
   * ahead leases each row, and counting the attempt names the claim (finish() only records the claim's own outcome).
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedMessage[]> {
    return this.db.query<ClaimedMessage>(
      `WITH due AS (
         SELECT id FROM messages WHERE status = 'pending' AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED
       )
       UPDATE messages m SET attempts = m.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + $2 * interval '1 millisecond'
         FROM due WHERE m.id = due.id
       RETURNING m.id, m.channel, m.recipient, m.kind, m.template, m.locale, m.details, m.secret, m.code_id, m.expires_at, m.attempts`,
      [limit, leaseMs],
    );
  }

  /**
   * Records a claim's outcome: sent, tried again after `retryInMs`, or failed for good (retryInMs null). Sent or failed,
   * the secret is erased; failed, the code it carried no longer counts against its owner. Answers whether the claim
   * was still the message's (a later claim's outcome is never overwritten).
   */
  async finish(id: string, attempts: number, outcome: { sent: boolean; error: string | null; retryInMs: number | null }): Promise<boolean> {
    const rows = await this.db.query<{ code_id: string | null; status: string }>(
      `UPDATE messages SET
          status = CASE WHEN $3 THEN 'sent' WHEN $5::int IS NULL THEN 'failed' ELSE 'pending' END,
          sent_at = CASE WHEN $3 THEN now() ELSE sent_at END,
          secret = CASE WHEN $3 OR $5::int IS NULL THEN NULL ELSE secret END,
          last_error = $4,
          next_attempt_at = CASE WHEN $5::int IS NULL THEN next_attempt_at ELSE now() + $5 * interval '1 millisecond' END
        WHERE id = $1 AND attempts = $2 AND status = 'pending'
        RETURNING code_id, status`,
      [id, attempts, outcome.sent, outcome.error, outcome.retryInMs],
    );
    const row = rows[0];
    if (row?.status === 'failed' && row.code_id) await this.markUndelivered(row.code_id);
    return !!row;
  }

  /** A code whose message never left: it counts no more toward its login's cooldown and hourly number. */
  private async markUndelivered(codeId: string): Promise<void> {
    await this.db.query(`UPDATE one_time_codes SET undelivered = true WHERE id = $1`, [codeId]);
  }

  /** Messages by status: pending (not yet sent), failed (given up), for the metrics. */
  async counts(): Promise<{ pending: number; failed: number }> {
    const [row] = await this.db.query<{ pending: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'failed')::int AS failed
         FROM messages WHERE status <> 'sent'`,
    );
    return row;
  }

  async view(filter: MessageFilter, offset: number, limit: number): Promise<{ total: number; rows: MessageRow[] }> {
    const where = `($1::text[] IS NULL OR status = ANY($1)) AND ($2::text[] IS NULL OR channel = ANY($2)) AND ($3::text IS NULL OR recipient = $3)`;
    const params = [
      filter.statuses?.length ? filter.statuses : null,
      filter.channels?.length ? filter.channels : null,
      filter.recipient ?? null,
    ];
    const [{ total }] = await this.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM messages WHERE ${where}`, params);
    const rows = await this.db.query<MessageRow>(
      `SELECT id, channel, recipient, kind, template, locale, status, attempts, next_attempt_at, last_attempt_at, last_error, sent_at, created_at
         FROM messages WHERE ${where} ORDER BY created_at DESC, id LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    return { total, rows };
  }
}
