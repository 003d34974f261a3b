import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface WebhookRow {
  id: string;
  organization_id: string;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

/** A delivery claimed by a dispatcher: what to send where. `data` is the event's JSON text. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  event_id: string;
  type: string;
  event_created_at: Date;
  data: string;
  url: string;
  secret: string;
}

const COLUMNS = 'id, organization_id, url, events, description, secret, enabled, created_at, updated_at';
const DELIVERY = `d.id, d.webhook_id, d.event_id, o.type AS event_type, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at,
  d.last_status_code, d.last_error, d.delivered_at, d.created_at`;

/** webhooks and webhook_deliveries; a webhook is always read within its organization. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  /** Takes the organization's webhook lock until the transaction ends (creations queue on it) and counts its webhooks. */
  async lockAndCount(organizationId: string): Promise<number> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || $1))`, [organizationId]);
    const [{ n }] = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE organization_id = $1', [
      organizationId,
    ]);
    return n;
  }

  async insert(
    organizationId: string,
    v: { url: string; events: string[]; description: string | null; secret: string; createdBy: string },
  ) {
    const [row] = await this.db.query<WebhookRow>(
      `INSERT INTO webhooks (organization_id, url, events, description, secret, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [organizationId, v.url, v.events, v.description, v.secret, v.createdBy],
    );
    return row;
  }

  async get(organizationId: string, id: string): Promise<WebhookRow | undefined> {
    const [row] = await this.db.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE id = $1 AND organization_id = $2`, [
      id,
      organizationId,
    ]);
    return row;
  }

  async update(
    organizationId: string,
    id: string,
    v: { url: string; events: string[]; description: string | null; enabled: boolean },
  ): Promise<WebhookRow | undefined> {
    const [row] = await this.db.query<WebhookRow>(
      `UPDATE webhooks SET url = $3, events = $4, description = $5, enabled = $6, updated_at = now()
        WHERE id = $1 AND organization_id = $2 RETURNING ${COLUMNS}`,
      [id, organizationId, v.url, v.events, v.description, v.enabled],
    );
    return row;
  }

  async rotateSecret(organizationId: string, id: string, secret: string): Promise<WebhookRow | undefined> {
    const [row] = await this.db.query<WebhookRow>(
      `UPDATE webhooks SET secret = $3, updated_at = now() WHERE id = $1 AND organization_id = $2 RETURNING ${COLUMNS}`,
      [id, organizationId, secret],
    );
    return row;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>('DELETE FROM webhooks WHERE id = $1 AND organization_id = $2 RETURNING id', [
      id,
      organizationId,
    ]);
    return rows.length > 0;
  }

  async page(organizationId: string, offset: number, limit: number): Promise<{ total: number; rows: WebhookRow[] }> {
    const [{ n }] = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE organization_id = $1', [
      organizationId,
    ]);
    const rows = await this.db.query<WebhookRow>(
      `SELECT ${COLUMNS} FROM webhooks WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [organizationId, limit, offset],
    );
    return { total: n, rows };
  }

  async deliveries(
    webhookId: string,
    status: string | null,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: DeliveryRow[] }> {
    const where =
      'FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id WHERE d.webhook_id = $1 AND ($2::text IS NULL OR d.status = $2)';
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n ${where}`, [webhookId, status]);
    const rows = await this.db.query<DeliveryRow>(`SELECT ${DELIVERY} ${where} ORDER BY d.created_at DESC, d.id DESC LIMIT $3 OFFSET $4`, [
      webhookId,
      status,
      limit,
      offset,
    ]);
    return { total: n, rows };
  }

  /** Queues a delivery of the organization's webhooks again, at once, with a fresh count of attempts. */
  async redeliver(organizationId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
    const [row] = await this.db.query<DeliveryRow>(
      `WITH d AS (
         UPDATE webhook_deliveries d SET status = 'pending', attempts = 0, next_attempt_at = now()
           FROM webhooks w WHERE d.id = $1 AND w.id = d.webhook_id AND w.organization_id = $2
         RETURNING d.*
       )
       SELECT ${DELIVERY} FROM d JOIN outbox o ON o.id = d.event_id`,
      [deliveryId, organizationId],
    );
    return row;
  }

  /**
   * Claims up to `limit` due deliveries (a disabled webhook still gets those queued before). SKIP LOCKED lets instances claim side by
   * side; moving next_attempt_at `leaseMs` ahead leases each row, so no other instance claims it
   * until this one has had the time to finish (or crashed: then it is retried).
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.db.query<ClaimedDelivery>(
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d
          WHERE d.status = 'pending' AND d.next_attempt_at <= now()
          ORDER BY d.next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries d SET attempts = d.attempts + 1, last_attempt_at = now(),
              next_attempt_at = now() + $2 * interval '1 millisecond'
         FROM due, webhooks w, outbox o
        WHERE d.id = due.id AND w.id = d.webhook_id AND o.id = d.event_id
        RETURNING d.id, d.attempts, d.event_id, o.type, o.created_at AS event_created_at, o.data::text AS data, w.url, w.secret`,
      [limit, leaseMs],
    );
  }

  /** Records an attempt's outcome: delivered, tried again after `retryInMs`, or failed for good (retryInMs null). */
  async finish(
    id: string,
    attempts: number,
    outcome: { delivered: boolean; statusCode: number | null; error: string | null; retryInMs: number | null },
  ) {
    await this.db.query(
      `UPDATE webhook_deliveries SET
          status = CASE WHEN $3 THEN 'delivered' WHEN $6::int IS NULL THEN 'failed' ELSE 'pending' END,
          delivered_at = CASE WHEN $3 THEN now() ELSE delivered_at END,
          last_status_code = $4, last_error = $5,
          next_attempt_at = CASE WHEN $6::int IS NULL THEN next_attempt_at ELSE now() + $6 * interval '1 millisecond' END
        WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
      [id, attempts, outcome.delivered, outcome.statusCode, outcome.error, outcome.retryInMs],
    );
  }

  /** Deliveries that failed for good since `since`, for the dashboard. */
  async failedSince(since: Date): Promise<number> {
    const [{ n }] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'failed' AND last_attempt_at >= $1`,
      [since],
    );
    return n;
  }
}
