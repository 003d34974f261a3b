import { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboxWebhooks1763801500000 implements MigrationInterface {
  name = 'OutboxWebhooks1763801500000';

  async up(q: QueryRunner): Promise<void> {
    // Events, written in the same transaction as the change they report (src/platform/outbox). `organization_ids`:
    // whose objects the event is about; only their webhooks receive it.
    await q.query(`
      CREATE TABLE outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        type text NOT NULL CHECK (type ~ '^[a-z_]+\\.[a-z_]+$'),
        organization_ids uuid[] NOT NULL,
        data json NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX outbox_created_idx ON outbox (created_at, id)`);

    // An organization's webhook endpoints. The secret signs every delivery (Standard Webhooks), so it is kept as is.
    await q.query(`
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
        events text[] NOT NULL CHECK (cardinality(events) > 0),
        description text CHECK (length(description) <= 500),
        secret text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_by uuid REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhooks_organization_idx ON webhooks (organization_id, created_at DESC, id DESC)`);

    // One event to one webhook. The dispatcher claims due rows (FOR UPDATE SKIP LOCKED) and leases them by
    // moving next_attempt_at past the delivery's timeout, so no two instances send one delivery at once.
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id uuid NOT NULL REFERENCES outbox(id),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (webhook_id, event_id)
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_deliveries, webhooks, outbox`);
  }
}
