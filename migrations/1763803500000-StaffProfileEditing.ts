import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What staff edit on a user's profile (issue 32) beside what the user keeps themself: the postal address by parts
 * (the family's address form: country, zip code, city, street, house number) and the business of the user's
 * organization (type, VAT number, its administrator; the company name when it differs from the organization's).
 */
export class StaffProfileEditing1763803500000 implements MigrationInterface {
  name = 'StaffProfileEditing1763803500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users
        ADD COLUMN postal_address jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(postal_address) = 'object')`);
    await q.query(`
      ALTER TABLE organizations
        ADD COLUMN business jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(business) = 'object')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations DROP COLUMN business`);
    await q.query(`ALTER TABLE users DROP COLUMN postal_address`);
  }
}
