import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /profiles/my` lists the caller's memberships, and each instance keeps what it read for a few seconds
 * (src/people/profiles/profile-cache.ts), dropped when the database announces a change on `finapi_principals`. A
 * membership updated or deleted was announced (migration 1763801600000); one added now is too, by the same function
 * (the row's id: the new row's on an insert, else the old one's).
 */
export class MembershipAddedNotifications1763804580000 implements MigrationInterface {
  name = 'MembershipAddedNotifications1763804580000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION finapi_notify_principal() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('finapi_principals', TG_TABLE_NAME || ':' || (CASE WHEN TG_OP = 'INSERT' THEN NEW.id ELSE OLD.id END)::text);
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER memberships_notify_principal_added AFTER INSERT ON memberships FOR EACH ROW EXECUTE FUNCTION finapi_notify_principal()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER memberships_notify_principal_added ON memberships`);
    await q.query(`
      CREATE OR REPLACE FUNCTION finapi_notify_principal() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('finapi_principals', TG_TABLE_NAME || ':' || OLD.id::text);
        RETURN NULL;
      END $$`);
  }
}
