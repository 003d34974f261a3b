import { MigrationInterface, QueryRunner } from 'typeorm';

export class SessionAddresses1763800500000 implements MigrationInterface {
  name = 'SessionAddresses1763800500000';

  async up(q: QueryRunner): Promise<void> {
    // The client address a token was issued to, shown in its user's list of sessions (older tokens show none).
    // Listing a user's live tokens uses auth_tokens_user_live_idx.
    await q.query(`ALTER TABLE auth_tokens ADD COLUMN address text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth_tokens DROP COLUMN address`);
  }
}
