import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the family's profile screens keep beside the login's contact (issue 31): the person's own e-mail, phone,
 * middle name and description (the contact stays the login's, changed only with a code), the security settings,
 * uploaded media files (their bytes here unless MEDIA_FILES_DIR is set) and the identity documents a user links to
 * their profile (a file, or for a tax id just its number).
 */
export class ProfileSettingsAndDocuments1763802900000 implements MigrationInterface {
  name = 'ProfileSettingsAndDocuments1763802900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users
        ADD COLUMN middle_name text,
        ADD COLUMN person_email text,
        ADD COLUMN person_phone_number text,
        ADD COLUMN description text,
        ADD COLUMN security_settings jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await q.query(`
      CREATE TABLE media_files (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        media_type text NOT NULL,
        size integer NOT NULL CHECK (size > 0),
        md5 text NOT NULL,
        sha1 text NOT NULL,
        content bytea,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX media_files_owner_idx ON media_files (owner_id, created_at)`);
    await q.query(`
      CREATE TABLE profile_documents (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type text NOT NULL,
        file_id uuid REFERENCES media_files(id),
        document_identifier text,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'declined')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (file_id IS NOT NULL OR document_identifier IS NOT NULL),
        UNIQUE (user_id, type)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE profile_documents`);
    await q.query(`DROP TABLE media_files`);
    await q.query(`
      ALTER TABLE users
        DROP COLUMN middle_name, DROP COLUMN person_email, DROP COLUMN person_phone_number, DROP COLUMN description,
        DROP COLUMN security_settings`);
  }
}
