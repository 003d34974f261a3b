import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import { containing } from '../../platform/database/search-sql';

export interface ContactRow {
  id: string;
  name: string;
  phone_number: string | null;
  email: string | null;
  coin_serial: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ContactValues {
  name: string;
  phoneNumber: string | null;
  email: string | null;
  coinSerial: string | null;
}

const COLUMNS = 'id, name, phone_number, email, coin_serial::text AS coin_serial, created_at, updated_at';

/** Each user's contact book; a contact is known by its phone number or e-mail within one book. */
@Injectable()
export class ContactBookRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the contacts in order, skipping any whose phone number or e-mail is already in the book or earlier in
   * the list; answers only the rows inserted. Concurrent calls for one book are serialized by the owner's lock.
   */
  async insertNew(ownerUserId: string, contacts: ContactValues[]): Promise<ContactRow[]> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('contacts:' || $1))`, [ownerUserId]);
    return this.db.query<ContactRow>(
      `WITH given AS (
         SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[]) WITH ORDINALITY AS g(name, phone_number, email, coin_serial, n)
       ), fresh AS (
         SELECT g.* FROM given g
          WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c.owner_user_id = $1
                              AND (c.phone_number = g.phone_number OR lower(c.email) = lower(g.email)))
            AND NOT EXISTS (SELECT 1 FROM given e WHERE e.n < g.n AND (e.phone_number = g.phone_number OR lower(e.email) = lower(g.email)))
       )
       INSERT INTO contacts (owner_user_id, name, phone_number, email, coin_serial)
       SELECT $1, name, phone_number, email, coin_serial FROM fresh ORDER BY n
       RETURNING ${COLUMNS}`,
      [
        ownerUserId,
        contacts.map((c) => c.name),
        contacts.map((c) => c.phoneNumber),
        contacts.map((c) => c.email),
        contacts.map((c) => c.coinSerial),
      ],
    );
  }

  async get(ownerUserId: string, id: string): Promise<ContactRow | undefined> {
    const [row] = await this.db.query<ContactRow>(`SELECT ${COLUMNS} FROM contacts WHERE id = $1 AND owner_user_id = $2`, [
      id,
      ownerUserId,
    ]);
    return row;
  }

  async page(ownerUserId: string, text: string | undefined, offset: number, limit: number): Promise<{ total: number; rows: ContactRow[] }> {
    const params: unknown[] = [ownerUserId];
    const like = text
      ? ` AND (name ILIKE $${params.push(containing(text))} OR phone_number ILIKE $${params.length} OR email ILIKE $${params.length})`
      : '';
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM contacts WHERE owner_user_id = $1${like}`, params);
    const rows = await this.db.query<ContactRow>(
      `SELECT ${COLUMNS} FROM contacts WHERE owner_user_id = $1${like} ORDER BY name, id LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: n, rows };
  }

  /** Sets the given fields; undefined when no such contact of the owner, `duplicate` when another contact has the phone or e-mail. */
  async update(
    ownerUserId: string,
    id: string,
    fields: Partial<ContactValues>,
  ): Promise<ContactRow | 'duplicate' | 'unreachable' | undefined> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('contacts:' || $1))`, [ownerUserId]);
    const current = await this.get(ownerUserId, id);
    if (!current) return undefined;
    const next = {
      name: fields.name ?? current.name,
      phoneNumber: fields.phoneNumber === undefined ? current.phone_number : fields.phoneNumber,
      email: fields.email === undefined ? current.email : fields.email,
      coinSerial: fields.coinSerial === undefined ? current.coin_serial : fields.coinSerial,
    };
    if (next.phoneNumber === null && next.email === null && next.coinSerial === null) return 'unreachable';
    const [{ taken }] = await this.db.query<{ taken: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM contacts WHERE owner_user_id = $1 AND id <> $2 AND (phone_number = $3 OR lower(email) = lower($4))) AS taken`,
      [ownerUserId, id, next.phoneNumber, next.email],
    );
    if (taken) return 'duplicate';
    const [row] = await this.db.query<ContactRow>(
      `UPDATE contacts SET name = $3, phone_number = $4, email = $5, coin_serial = $6, updated_at = now()
        WHERE id = $1 AND owner_user_id = $2 RETURNING ${COLUMNS}`,
      [id, ownerUserId, next.name, next.phoneNumber, next.email, next.coinSerial],
    );
    return row;
  }

  async delete(ownerUserId: string, id: string): Promise<ContactRow | undefined> {
    const [row] = await this.db.query<ContactRow>(`DELETE FROM contacts WHERE id = $1 AND owner_user_id = $2 RETURNING ${COLUMNS}`, [
      id,
      ownerUserId,
    ]);
    return row;
  }

  /** Whether `serial` is an open client coin (a contact's coin must be one). */
  async isClientCoin(serial: string): Promise<boolean> {
    const [{ found }] = await this.db.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM coins WHERE serial = $1 AND type = 'client' AND closed_at IS NULL) AS found`,
      [serial],
    );
    return found;
  }

  /**
   * The main open coin in `currency` of the registered user the contact is (by its coin's owner, or by the phone
   * number or e-mail of a user with a membership), or undefined.
   */
  async coinOf(contact: ContactRow, currency: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ serial: string }>(
      `SELECT k.serial::text AS serial
         FROM coins k JOIN currencies cu ON cu.id = k.currency_id
        WHERE cu.code = $1 AND k.type = 'client' AND k.closed_at IS NULL AND k.active
          AND (k.serial = $2::bigint
               OR k.main AND k.organization_id IN (
                    SELECT m.organization_id FROM users u JOIN memberships m ON m.user_id = u.id
                     WHERE (u.phone_number = $3 OR lower(u.email) = lower($4)) AND m.role IN ('individual', 'merchant')))
        ORDER BY (k.serial = $2::bigint) DESC NULLS LAST, k.serial LIMIT 1`,
      [currency, contact.coin_serial, contact.phone_number, contact.email],
    );
    return row?.serial;
  }
}
