import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 46: the messages outbox. A code or a notice is a row written in the transaction that makes it, sent after the
 * commit by a dispatcher (claimed with a lease, retried with backoff, failed for good after its last attempt). A
 * code's secret is kept only encrypted (AES-256-GCM under a key derived from AUDIT_CHAIN_KEY), and only while the
 * message may still be sent: the CHECK holds that no sent or failed row keeps it. A code whose message was never
 * delivered is marked on its row (`undelivered`) and no longer counts against its owner's limits.
 */
export class Messages1763804520000 implements MigrationInterface {
  name = 'Messages1763804520000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE messages (
        id uuid PRIMARY KEY,
        channel text CHECK (channel IN ('email', 'sms', 'log')),
        recipient text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('code', 'notice')),
        template text NOT NULL,
        locale text NOT NULL DEFAULT 'en',
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        secret bytea,
        code_id uuid REFERENCES one_time_codes (id) ON DELETE SET NULL,
        expires_at timestamptz,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        last_error text,
        sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (status = 'pending' OR secret IS NULL),
        CHECK (kind = 'notice' OR status <> 'pending' OR secret IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX messages_due_idx ON messages (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX messages_status_created_idx ON messages (status, created_at)`);
    await q.query(`CREATE INDEX messages_code_idx ON messages (code_id) WHERE code_id IS NOT NULL`);
    await q.query(`ALTER TABLE one_time_codes ADD COLUMN undelivered boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE one_time_codes DROP COLUMN undelivered`);
    await q.query(`DROP TABLE messages`);
  }
}
