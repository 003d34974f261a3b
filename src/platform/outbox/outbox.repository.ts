import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

/**
 * outbox: events written in the transaction of the change they report; and, in the same statement,
 * one webhook_deliveries row per enabled webhook of those organizations subscribed to the type — at most
 * `perOrganization` of each organization (its oldest), whatever rows the table holds.
 */
@Injectable()
export class OutboxRepository {
  constructor(private readonly db: Database) {}

  /** Inserts the event (`data`: its JSON text, exact decimals kept) and its deliveries; answers the event's id and how many deliveries it queued. */
  async insert(
    type: string,
    organizationIds: string[],
    data: string,
    perOrganization: number,
  ): Promise<{ id: string; deliveries: number }> {
    const [row] = await this.db.query<{ id: string; deliveries: number }>(
      `WITH e AS (
         INSERT INTO outbox (type, organization_ids, data) VALUES ($1, $2::uuid[], $3::json) RETURNING id
       ), w AS (
         SELECT id, row_number() OVER (PARTITION BY organization_id ORDER BY created_at, id) AS n FROM webhooks
          WHERE enabled AND organization_id = ANY($2::uuid[]) AND $1 = ANY(events)
       ), d AS (
         INSERT INTO webhook_deliveries (webhook_id, event_id)
         SELECT w.id, e.id FROM e, w WHERE w.n <= $4
         RETURNING 1
       )
       SELECT e.id, (SELECT count(*)::int FROM d) AS deliveries FROM e`,
      [type, organizationIds, data, perOrganization],
    );
    return row;
  }

  /** Every organization with an enabled webhook, and the event types those webhooks listen to. */
  async subscriptions(): Promise<{ organization_id: string; events: string[] }[]> {
    return this.db.query(
      `SELECT organization_id, array_agg(DISTINCT e) AS events FROM webhooks, unnest(events) e WHERE enabled GROUP BY organization_id`,
    );
  }
}
