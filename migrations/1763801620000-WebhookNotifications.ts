import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each instance keeps which organizations' webhooks listen to which events (src/platform/outbox/outbox.service.ts), so an
 * event nobody listens to costs no write. Any change to `webhooks` is announced on `finapi_webhooks` when it
 * commits, and every instance reloads that list.
 */
export class WebhookNotifications1763801620000 implements MigrationInterface {
  name = 'WebhookNotifications1763801620000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION finapi_notify_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('finapi_webhooks', TG_OP);
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER webhooks_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON webhooks FOR EACH STATEMENT EXECUTE FUNCTION finapi_notify_webhooks()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER webhooks_notify ON webhooks`);
    await q.query(`DROP FUNCTION finapi_notify_webhooks()`);
  }
}
