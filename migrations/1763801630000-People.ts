import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People (issue 16): a person's birth date and address; requests to reset an approved identification; each user's
 * contact book; and a tamper-evident action log — every user_actions row carries the hash of the one before it.
 */
export class People1763801630000 implements MigrationInterface {
  name = 'People1763801630000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN birth_date date CHECK (birth_date >= DATE '1900-01-01'),
                                     ADD COLUMN address text CHECK (length(address) <= 500)`);

    await q.query(`
      CREATE TABLE reset_identification_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','declined')),
        created_by uuid NOT NULL REFERENCES users(id),
        decided_by uuid REFERENCES users(id),
        decision_reason text CHECK (length(decision_reason) <= 500),
        created_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz,
        CHECK ((status = 'pending') = (decided_at IS NULL))
      )`);
    await q.query(
      `CREATE INDEX reset_identification_requests_user_idx ON reset_identification_requests (user_id, created_at DESC, id DESC)`,
    );
    // One open request per user at a time.
    await q.query(
      `CREATE UNIQUE INDEX reset_identification_requests_open_idx ON reset_identification_requests (user_id) WHERE status = 'pending'`,
    );

    await q.query(`
      CREATE TABLE contacts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_user_id uuid NOT NULL REFERENCES users(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        phone_number text CHECK (length(phone_number) <= 20),
        email text CHECK (length(email) <= 254),
        coin_serial bigint REFERENCES coins(serial),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (phone_number IS NOT NULL OR email IS NOT NULL OR coin_serial IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX contacts_owner_idx ON contacts (owner_user_id, name, id)`);
    // A contact is known by its phone number or e-mail within one book.
    await q.query(`CREATE UNIQUE INDEX contacts_owner_phone_idx ON contacts (owner_user_id, phone_number) WHERE phone_number IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX contacts_owner_email_idx ON contacts (owner_user_id, lower(email)) WHERE email IS NOT NULL`);

    // The action log as a hash chain: seq orders it, each row's hash covers the previous row's hash and its own content.
    await q.query(`ALTER TABLE user_actions ADD COLUMN seq bigint, ADD COLUMN prev_hash text, ADD COLUMN hash text`);
    await q.query(`CREATE SEQUENCE user_actions_seq_seq OWNED BY user_actions.seq`);
    await q.query(`
      CREATE FUNCTION user_action_hash(prev text, id uuid, user_id uuid, actor_user_id uuid, action text, login text, address text,
                                       details jsonb, created_at timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
        SELECT encode(sha256(convert_to(concat_ws(E'\\x1f', prev, id::text, coalesce(user_id::text, ''), coalesce(actor_user_id::text, ''),
                                                  action, coalesce(login, ''), coalesce(address, ''), details::text,
                                                  (extract(epoch FROM created_at) * 1000000)::bigint::text), 'UTF8')), 'hex')
      $$`);
    // Rows are chained one after another: an advisory lock held to the end of the inserting transaction orders them,
    // and the last hash of the transaction is carried in a transaction-local setting for the rows after it.
    await q.query(`
      CREATE FUNCTION user_actions_chain() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        last text := current_setting('finapi.user_actions_last', true);
      BEGIN
        PERFORM pg_advisory_xact_lock(7312016);
        IF last IS NULL OR last = '' THEN
          SELECT hash INTO last FROM user_actions ORDER BY seq DESC LIMIT 1;
        END IF;
        NEW.seq := nextval('user_actions_seq_seq');
        NEW.prev_hash := coalesce(last, '');
        NEW.hash := user_action_hash(NEW.prev_hash, NEW.id, NEW.user_id, NEW.actor_user_id, NEW.action, NEW.login, NEW.address,
                                     NEW.details, NEW.created_at);
        PERFORM set_config('finapi.user_actions_last', NEW.hash, true);
        RETURN NEW;
      END $$`);
    // The rows written before the chain existed are chained in their order.
    await q.query(`
      DO $$
      DECLARE
        r record;
        last text := '';
      BEGIN
        FOR r IN SELECT * FROM user_actions ORDER BY created_at, id LOOP
          UPDATE user_actions SET seq = nextval('user_actions_seq_seq'), prev_hash = last,
                 hash = user_action_hash(last, r.id, r.user_id, r.actor_user_id, r.action, r.login, r.address, r.details, r.created_at)
           WHERE id = r.id RETURNING hash INTO last;
        END LOOP;
      END $$`);
    await q.query(
      `ALTER TABLE user_actions ALTER COLUMN seq SET NOT NULL, ALTER COLUMN prev_hash SET NOT NULL, ALTER COLUMN hash SET NOT NULL`,
    );
    await q.query(`CREATE UNIQUE INDEX user_actions_seq_idx ON user_actions (seq)`);
    await q.query(`CREATE INDEX user_actions_created_idx ON user_actions (created_at DESC, seq DESC)`);
    await q.query(`CREATE TRIGGER user_actions_chain BEFORE INSERT ON user_actions FOR EACH ROW EXECUTE FUNCTION user_actions_chain()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER user_actions_chain ON user_actions`);
    await q.query(`DROP FUNCTION user_actions_chain()`);
    await q.query(`DROP INDEX user_actions_created_idx`);
    await q.query(`ALTER TABLE user_actions DROP COLUMN seq, DROP COLUMN prev_hash, DROP COLUMN hash`);
    await q.query(`DROP FUNCTION user_action_hash(text, uuid, uuid, uuid, text, text, text, jsonb, timestamptz)`);
    await q.query(`DROP TABLE contacts`);
    await q.query(`DROP TABLE reset_identification_requests`);
    await q.query(`ALTER TABLE users DROP COLUMN birth_date, DROP COLUMN address`);
  }
}
