import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 43, item 7: the kernel's per-caller rate limiter (src/platform/access/rate-limiter.ts). One token bucket per
 * limit and subject (a user, a client address): the hits it has left and when it last changed, shared by every instance
 * so a limit holds behind a load balancer. Buckets idle for a day are full again and deleted as the limiter goes.
 */
export class RateLimits1763804320000 implements MigrationInterface {
  name = 'RateLimits1763804320000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rate_limit_buckets (
        name text NOT NULL,
        subject text NOT NULL,
        tokens double precision NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (name, subject)
      )`);
    await q.query(`CREATE INDEX rate_limit_buckets_updated_at_idx ON rate_limit_buckets (updated_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rate_limit_buckets`);
  }
}
