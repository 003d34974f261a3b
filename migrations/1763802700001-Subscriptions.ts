import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscriptions: a transfer template paid again every `frequency` days, weeks, months or years from a start date, until
 * an end date, a number of due dates or a total amount. `next_due` is the next due date the scheduler runs; deleting
 * the template deletes its subscriptions.
 */
export class Subscriptions1763802700001 implements MigrationInterface {
  name = 'Subscriptions1763802700001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE subscriptions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        template_id uuid NOT NULL REFERENCES transfer_templates(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        period text NOT NULL CHECK (period IN ('DAILY', 'WEEKLY', 'MONTHLY', 'ANNUALLY')),
        frequency integer NOT NULL CHECK (frequency BETWEEN 1 AND 1000),
        start_date date NOT NULL,
        expiration_type text NOT NULL CHECK (expiration_type IN ('DATE', 'INFINITY', 'COUNT', 'AMOUNT')),
        end_date date CHECK ((expiration_type = 'DATE') = (end_date IS NOT NULL)),
        max_count integer CHECK ((expiration_type = 'COUNT') = (max_count IS NOT NULL) AND max_count > 0),
        max_amount numeric(38, 18) CHECK ((expiration_type = 'AMOUNT') = (max_amount IS NOT NULL) AND max_amount > 0),
        status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'STOPPED', 'PROCESSED', 'CANCELLED')),
        occurrence integer NOT NULL DEFAULT 0 CHECK (occurrence >= 0),
        next_due date NOT NULL,
        runs integer NOT NULL DEFAULT 0 CHECK (runs >= 0),
        paid numeric(38, 18) NOT NULL DEFAULT 0 CHECK (paid >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX subscriptions_owner_idx ON subscriptions (user_id, organization_id, created_at)`);
    await q.query(`CREATE INDEX subscriptions_template_idx ON subscriptions (template_id)`);
    await q.query(`CREATE INDEX subscriptions_due_idx ON subscriptions (next_due, id) WHERE status = 'ACTIVE'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE subscriptions`);
  }
}
