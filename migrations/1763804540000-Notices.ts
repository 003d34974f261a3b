import { MigrationInterface, QueryRunner } from 'typeorm';

/** Whether a user's `transactionNotification` asks for any notice (e-mail or SMS). */
const WANTS_TRANSACTION_NOTICES = `((security_settings -> 'transactionNotification' ->> 'email') = 'true'
    OR (security_settings -> 'transactionNotification' ->> 'phone') = 'true')`;

/**
 * Issue 46, item 3: notices. A user's `locale` (null: English) chooses the language of the messages they get. Each
 * instance keeps which organizations have a member who asked for transaction notices (src/platform/messages/
 * notices.service.ts), so a money movement of organizations without one costs no statement: a change of a user's
 * security settings, or a membership given to a user who asked, is announced on `finapi_notices` when it commits,
 * and every instance reads the list again. The partial index keeps that read to the users who asked.
 */
export class Notices1763804540000 implements MigrationInterface {
  name = 'Notices1763804540000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN locale text CHECK (locale ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$')`);
    await q.query(`CREATE INDEX users_transaction_notices_idx ON users (id) WHERE ${WANTS_TRANSACTION_NOTICES}`);
    await q.query(`
      CREATE FUNCTION finapi_notify_notices() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('finapi_notices', TG_TABLE_NAME);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION finapi_notify_notice_membership() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM users WHERE id = NEW.user_id AND ${WANTS_TRANSACTION_NOTICES}) THEN
          PERFORM pg_notify('finapi_notices', TG_TABLE_NAME);
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER users_notices_notify AFTER UPDATE OF security_settings ON users FOR EACH STATEMENT EXECUTE FUNCTION finapi_notify_notices()`,
    );
    await q.query(
      `CREATE TRIGGER memberships_notices_notify AFTER INSERT OR UPDATE OF user_id, organization_id ON memberships FOR EACH ROW EXECUTE FUNCTION finapi_notify_notice_membership()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER memberships_notices_notify ON memberships`);
    await q.query(`DROP TRIGGER users_notices_notify ON users`);
    await q.query(`DROP FUNCTION finapi_notify_notice_membership()`);
    await q.query(`DROP FUNCTION finapi_notify_notices()`);
    await q.query(`DROP INDEX users_transaction_notices_idx`);
    await q.query(`ALTER TABLE users DROP COLUMN locale`);
  }
}
