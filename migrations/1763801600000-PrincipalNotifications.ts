import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each node caches the principal a token resolves to for a few seconds (src/platform/auth/principal-cache.ts). A change to
 * anything that principal is made of — the token (revoked), its user, membership or organization — is announced on
 * the `finapi_principals` channel when it commits, so every node drops what it cached about that row at once.
 */
export class PrincipalNotifications1763801600000 implements MigrationInterface {
  name = 'PrincipalNotifications1763801600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION finapi_notify_principal() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('finapi_principals', TG_TABLE_NAME || ':' || OLD.id::text);
        RETURN NULL;
      END $$`);
    for (const table of ['auth_tokens', 'users', 'memberships', 'organizations']) {
      await q.query(
        `CREATE TRIGGER ${table}_notify_principal AFTER UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION finapi_notify_principal()`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['auth_tokens', 'users', 'memberships', 'organizations']) {
      await q.query(`DROP TRIGGER ${table}_notify_principal ON ${table}`);
    }
    await q.query(`DROP FUNCTION finapi_notify_principal()`);
  }
}
