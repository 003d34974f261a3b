import { MigrationInterface, QueryRunner } from 'typeorm';

export class WireContract1763800700000 implements MigrationInterface {
  name = 'WireContract1763800700000';

  async up(q: QueryRunner): Promise<void> {
    // Operations in the vocabulary clients of this API family read.
    await q.query(`ALTER TABLE operations DROP CONSTRAINT operations_type_check, DROP CONSTRAINT operations_status_check`);
    await q.query(`UPDATE operations SET type = CASE type WHEN 'transfer' THEN 'client_transaction_transfer' WHEN 'bank_top_up' THEN 'bank_topup' ELSE type END,
                                         status = CASE status WHEN 'completed' THEN 'processed' ELSE status END`);
    await q.query(`ALTER TABLE operations ADD CONSTRAINT operations_type_check
                     CHECK (type IN ('client_transaction_transfer', 'bank_topup', 'coin_closure', 'reversal'))`);
    await q.query(`ALTER TABLE operations ADD CONSTRAINT operations_status_check
                     CHECK (status IN ('new', 'pending', 'processed', 'declined', 'error', 'reversed'))`);

    // Legs: each pair of entries (one debit, one credit) moves one amount from one coin to another.
    await q.query(`ALTER TABLE ledger_entries ADD COLUMN leg smallint`);
    await q.query(`UPDATE ledger_entries e SET leg = 0`);
    await q.query(`ALTER TABLE ledger_entries ALTER COLUMN leg SET NOT NULL`);

    // Contact details of users, and of the organizations customers open, for profiles, staff screens and operation parties.
    await q.query(`ALTER TABLE users ADD COLUMN first_name text CHECK (length(first_name) <= 100),
                                     ADD COLUMN last_name text CHECK (length(last_name) <= 100),
                                     ADD COLUMN email text CHECK (length(email) <= 254),
                                     ADD COLUMN email_verified boolean NOT NULL DEFAULT false,
                                     ADD COLUMN phone_number text CHECK (length(phone_number) <= 20),
                                     ADD COLUMN phone_verified boolean NOT NULL DEFAULT false`);
    await q.query(`UPDATE users SET email = login WHERE login LIKE '%@%'`);
    await q.query(`ALTER TABLE organizations ADD COLUMN email text CHECK (length(email) <= 254),
                                             ADD COLUMN phone_number text CHECK (length(phone_number) <= 20)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations DROP COLUMN email, DROP COLUMN phone_number`);
    await q.query(`ALTER TABLE users DROP COLUMN first_name, DROP COLUMN last_name, DROP COLUMN email, DROP COLUMN email_verified,
                                     DROP COLUMN phone_number, DROP COLUMN phone_verified`);
    await q.query(`ALTER TABLE ledger_entries DROP COLUMN leg`);
    await q.query(`ALTER TABLE operations DROP CONSTRAINT operations_type_check, DROP CONSTRAINT operations_status_check`);
    await q.query(`UPDATE operations SET type = CASE type WHEN 'client_transaction_transfer' THEN 'transfer' WHEN 'bank_topup' THEN 'bank_top_up' ELSE type END,
                                         status = CASE status WHEN 'processed' THEN 'completed' ELSE status END`);
    await q.query(
      `ALTER TABLE operations ADD CONSTRAINT operations_type_check CHECK (type IN ('transfer', 'bank_top_up', 'coin_closure', 'reversal'))`,
    );
    await q.query(
      `ALTER TABLE operations ADD CONSTRAINT operations_status_check CHECK (status IN ('completed', 'pending', 'declined', 'reversed'))`,
    );
  }
}
