import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each instance keeps the exchange rate in force per currency pair (src/money-movement/exchange-rates/rates-in-force.ts),
 * so an exchange runs no statement for it. Any change to `exchange_rates` is announced on `finapi_exchange_rates` when
 * it commits, and every instance drops what it kept.
 */
export class ExchangeRateNotifications1763804550000 implements MigrationInterface {
  name = 'ExchangeRateNotifications1763804550000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION finapi_notify_exchange_rates() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('finapi_exchange_rates', TG_TABLE_NAME);
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER exchange_rates_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON exchange_rates FOR EACH STATEMENT EXECUTE FUNCTION finapi_notify_exchange_rates()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER exchange_rates_notify ON exchange_rates`);
    await q.query(`DROP FUNCTION finapi_notify_exchange_rates()`);
  }
}
