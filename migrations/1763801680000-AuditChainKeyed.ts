import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money safety (issue 29): who made each operation, by role; and an action log whose hash chain needs a key.
 *
 * The chain's hashes become HMAC-SHA256 under AUDIT_CHAIN_KEY, which only the service holds: the service computes
 * them (UserActionsRepository, under the same advisory lock the trigger took), so whoever can write rows can no
 * longer recompute the chain. The actions recorded before stay as they were, chained by plain SHA-256;
 * `user_action_chain.keyed_from` is the first seq the key covers, and the keyed chain's first row carries the last
 * plain hash as its prev_hash, so the whole log stays one chain.
 */
export class AuditChainKeyed1763801680000 implements MigrationInterface {
  name = 'AuditChainKeyed1763801680000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE operations ADD COLUMN created_by_role text`);

    await q.query(`DROP TRIGGER user_actions_chain ON user_actions`);
    await q.query(`DROP FUNCTION user_actions_chain()`);
    await q.query(`
      CREATE TABLE user_action_chain (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        keyed_from bigint NOT NULL
      )`);
    await q.query(`INSERT INTO user_action_chain (keyed_from) SELECT coalesce(max(seq), 0) + 1 FROM user_actions`);
    // The start of an append: one appender at a time to the end of its transaction (the chain's order is the order of
    // this lock), the hash to chain after — read after the lock, on a fresh snapshot (a volatile function's statement) —,
    // the seqs of the n rows, and the transaction's time as the hashes cover it (created_at is now()).
    await q.query(`
      CREATE FUNCTION user_actions_append(n integer, OUT last text, OUT seqs bigint[], OUT micros text) LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(7312016);
        SELECT hash INTO last FROM user_actions ORDER BY seq DESC LIMIT 1;
        last := coalesce(last, '');
        seqs := ARRAY(SELECT nextval('user_actions_seq_seq') FROM generate_series(1, n));
        micros := (extract(epoch FROM now()) * 1000000)::bigint::text;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION user_actions_append(integer)`);
    // Back to a plain SHA-256 chain: the actions hashed with the key are chained again as the trigger would have.
    await q.query(`
      DO $$
      DECLARE
        r record;
        last text;
      BEGIN
        SELECT hash INTO last FROM user_actions WHERE seq < (SELECT keyed_from FROM user_action_chain) ORDER BY seq DESC LIMIT 1;
        FOR r IN SELECT * FROM user_actions WHERE seq >= (SELECT keyed_from FROM user_action_chain) ORDER BY seq LOOP
          UPDATE user_actions SET prev_hash = coalesce(last, ''),
                 hash = user_action_hash(coalesce(last, ''), r.id, r.user_id, r.actor_user_id, r.action, r.login, r.address, r.details, r.created_at)
           WHERE id = r.id RETURNING hash INTO last;
        END LOOP;
      END $$`);
    await q.query(`DROP TABLE user_action_chain`);
    // The trigger of migration 1763801630000 again.
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
    await q.query(`CREATE TRIGGER user_actions_chain BEFORE INSERT ON user_actions FOR EACH ROW EXECUTE FUNCTION user_actions_chain()`);
    await q.query(`ALTER TABLE operations DROP COLUMN created_by_role`);
  }
}
