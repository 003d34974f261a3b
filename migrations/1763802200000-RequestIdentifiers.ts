import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bank top-up requests and bank withdrawals get a business identifier, `request_identifier`: a number people read and
 * type (the family's web client shows it and decides a request by it), next to the UUID. Existing rows are numbered
 * as the column is added.
 */
export class RequestIdentifiers1763802200000 implements MigrationInterface {
  name = 'RequestIdentifiers1763802200000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['bank_top_up_requests', 'bank_withdrawals']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN request_identifier bigint GENERATED ALWAYS AS IDENTITY UNIQUE`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['bank_top_up_requests', 'bank_withdrawals']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN request_identifier`);
    }
  }
}
