import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['commission_profiles', 'commission_rules', 'commission_conditions', 'limit_profiles'];

/**
 * Each instance keeps the terms a flow is priced by (src/platform/commissions/pricing-cache.ts), so a priced request
 * runs no statement for them. Any change to profiles, rules, conditions or limits is announced on `finapi_pricing` when
 * it commits, and every instance drops what it kept (an organization's contract is announced on `finapi_principals`).
 */
export class PricingNotifications1763803700000 implements MigrationInterface {
  name = 'PricingNotifications1763803700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION finapi_notify_pricing() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('finapi_pricing', TG_TABLE_NAME);
        RETURN NULL;
      END $$`);
    for (const table of TABLES) {
      await q.query(
        `CREATE TRIGGER ${table}_notify_pricing AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION finapi_notify_pricing()`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`DROP TRIGGER ${table}_notify_pricing ON ${table}`);
    await q.query(`DROP FUNCTION finapi_notify_pricing()`);
  }
}
