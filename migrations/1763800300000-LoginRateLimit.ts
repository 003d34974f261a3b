import { MigrationInterface, QueryRunner } from 'typeorm';

export class LoginRateLimit1763800300000 implements MigrationInterface {
  name = 'LoginRateLimit1763800300000';

  async up(q: QueryRunner): Promise<void> {
    // Failed logins per client address and minute: shared by every instance, so the limit holds behind a load balancer.
    await q.query(`
      CREATE TABLE login_failures (
        address text NOT NULL,
        minute timestamptz NOT NULL,
        failures integer NOT NULL,
        PRIMARY KEY (address, minute)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE login_failures`);
  }
}
