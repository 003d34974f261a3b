import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

/** A user with the organization of their first membership: whose identification a profile shows. */
export interface PersonRow {
  id: string;
  login: string;
  name: string;
  status: string;
  first_name: string | null;
  last_name: string | null;
  middle_name: string | null;
  person_email: string | null;
  person_phone_number: string | null;
  description: string | null;
  security_settings: Partial<SecuritySettings>;
  /** The language of the user's messages (`de`, `en-GB`…); null: English. */
  locale: string | null;
  postal_address: PostalAddress;
  /** The business of the organization the profile is shown in. */
  business: Business;
  birth_date: string | null;
  address: string | null;
  email: string | null;
  email_verified: boolean;
  phone_number: string | null;
  phone_verified: boolean;
  organization_id: string;
  organization_type: string;
  organization_name: string;
  identification_status: string;
  contract_id: string;
  person_type: string;
  role: string;
}

/** The person behind a user, without an organization. */
/** What `GET /profiles/my` reads beside the token: the person, the organization's business, every membership. */
export type MyRow = UserPersonRow & { memberships: { organizationId: string; roleName: string }[] | null };

export type UserPersonRow = Omit<
  PersonRow,
  'organization_id' | 'organization_type' | 'organization_name' | 'identification_status' | 'contract_id' | 'person_type' | 'role'
>;

/** The security settings a user keeps (users.security_settings; an absent one is false). */
export interface SecuritySettings {
  twoFactorsAuthEnabled: boolean;
  transactionNotification: { phone: boolean; email: boolean };
  authorizationNotification: { phone: boolean; email: boolean };
}

/** A postal address by parts (users.postal_address; an absent part is unknown). */
export interface PostalAddress {
  country?: string;
  zipCode?: string;
  city?: string;
  street?: string;
  houseNumber?: string;
}

/** An organization's business (organizations.business): its type, VAT number, administrator, and a company name of its own. */
export interface Business {
  companyName?: string;
  type?: string;
  vat?: string;
  administrator?: { firstName?: string; lastName?: string; email?: string; phone?: string };
}

/** The person fields a user edits; a null clears one, an absent one stays. */
export interface PersonFields {
  firstName?: string | null;
  lastName?: string | null;
  middleName?: string | null;
  birthDate?: string | null;
  address?: string | null;
  email?: string | null;
  phoneNumber?: string | null;
  description?: string | null;
  locale?: string | null;
}

export interface ResetRequestRow {
  id: string;
  user_id: string;
  organization_id: string;
  reason: string;
  status: 'pending' | 'approved' | 'declined';
  created_by: string;
  decided_by: string | null;
  decision_reason: string | null;
  created_at: Date;
  decided_at: Date | null;
}

const RESET_COLUMNS = 'id, user_id, organization_id, reason, status, created_by, decided_by, decision_reason, created_at, decided_at';

/** Profiles (the person behind a user), identification, and the requests to reset it. */
@Injectable()
export class ProfilesRepository {
  constructor(private readonly db: Database) {}

  /** The user and their first organization, or undefined. */
  async person(userId: string, lock = false): Promise<PersonRow | undefined> {
    const [row] = await this.db.query<PersonRow>(
      `SELECT u.id, u.login, u.name, u.status, u.first_name, u.last_name, u.middle_name,
              u.person_email, u.person_phone_number, u.description, u.security_settings, u.locale, to_char(u.birth_date, 'YYYY-MM-DD') AS birth_date, u.address,
              u.postal_address, o.business, u.email, u.email_verified, u.phone_number, u.phone_verified,
              o.id AS organization_id, o.type AS organization_type, o.name AS organization_name, o.identification_status,
              o.contract_id, o.person_type, m.role
         FROM users u
         JOIN LATERAL (SELECT * FROM memberships m WHERE m.user_id = u.id ORDER BY m.created_at, m.id LIMIT 1) m ON true
         JOIN organizations o ON o.id = m.organization_id
        WHERE u.id = $1${lock ? ' FOR UPDATE OF u, o' : ''}`,
      [userId],
    );
    return row;
  }

  /** The caller's person, the business of `organizationId` and every membership, in one statement (what `GET /profiles/my` reads beside the token). */
  async mine(userId: string, organizationId: string): Promise<MyRow | undefined> {
    const [row] = await this.db.query<MyRow>(
      `SELECT u.id, u.login, u.name, u.status, u.first_name, u.last_name, u.middle_name,
              u.person_email, u.person_phone_number, u.description, u.security_settings, u.locale, to_char(u.birth_date, 'YYYY-MM-DD') AS birth_date,
              u.address, u.postal_address, (SELECT o.business FROM organizations o WHERE o.id = $2) AS business,
              u.email, u.email_verified, u.phone_number, u.phone_verified,
              (SELECT json_agg(json_build_object('organizationId', m.organization_id, 'roleName', m.role) ORDER BY m.created_at, m.id)
                 FROM memberships m WHERE m.user_id = u.id) AS memberships
         FROM users u WHERE u.id = $1`,
      [userId, organizationId],
    );
    return row;
  }

  /** The roles of every membership of the user. */
  async roles(userId: string): Promise<string[]> {
    const rows = await this.db.query<{ role: string }>(`SELECT role FROM memberships WHERE user_id = $1`, [userId]);
    return rows.map((r) => r.role);
  }

  /** Whether `userId` belongs to `organizationId`. */
  async isMember(userId: string, organizationId: string): Promise<boolean> {
    const [{ member }] = await this.db.query<{ member: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM memberships WHERE user_id = $1 AND organization_id = $2) AS member`,
      [userId, organizationId],
    );
    return member;
  }

  /** Sets the given person fields (a null clears one; an absent one stays). */
  async updatePerson(userId: string, fields: PersonFields): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [userId];
    const set = (column: string, value: unknown) => sets.push(`${column} = $${params.push(value)}`);
    if (fields.firstName !== undefined) set('first_name', fields.firstName);
    if (fields.lastName !== undefined) set('last_name', fields.lastName);
    if (fields.birthDate !== undefined) set('birth_date', fields.birthDate);
    if (fields.address !== undefined) set('address', fields.address);
    if (fields.middleName !== undefined) set('middle_name', fields.middleName);
    if (fields.email !== undefined) set('person_email', fields.email);
    if (fields.phoneNumber !== undefined) set('person_phone_number', fields.phoneNumber);
    if (fields.description !== undefined) set('description', fields.description);
    if (fields.locale !== undefined) set('locale', fields.locale);
    if (!sets.length) return;
    await this.db.query(`UPDATE users SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
  }

  async setSecurity(userId: string, settings: SecuritySettings): Promise<void> {
    await this.db.query(`UPDATE users SET security_settings = $2::jsonb, updated_at = now() WHERE id = $1`, [
      userId,
      JSON.stringify(settings),
    ]);
  }

  async setPostalAddress(userId: string, address: PostalAddress): Promise<void> {
    await this.db.query(`UPDATE users SET postal_address = $2::jsonb, updated_at = now() WHERE id = $1`, [userId, JSON.stringify(address)]);
  }

  async setBusiness(organizationId: string, business: Business): Promise<void> {
    await this.db.query(`UPDATE organizations SET business = $2::jsonb WHERE id = $1`, [organizationId, JSON.stringify(business)]);
  }

  /** Whether a user other than `userId` has `login`. */
  async loginTaken(login: string, userId: string): Promise<boolean> {
    const [{ taken }] = await this.db.query<{ taken: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM users WHERE login = $1 AND id <> $2) AS taken`,
      [login, userId],
    );
    return taken;
  }

  async setIdentification(organizationId: string, status: string): Promise<void> {
    await this.db.query(`UPDATE organizations SET identification_status = $2 WHERE id = $1`, [organizationId, status]);
  }

  /** A new pending request, or undefined when the user already has one pending. */
  async insertResetRequest(values: {
    userId: string;
    organizationId: string;
    reason: string;
    by: string;
  }): Promise<ResetRequestRow | undefined> {
    const [row] = await this.db.query<ResetRequestRow>(
      `INSERT INTO reset_identification_requests (user_id, organization_id, reason, created_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) WHERE status = 'pending' DO NOTHING RETURNING ${RESET_COLUMNS}`,
      [values.userId, values.organizationId, values.reason, values.by],
    );
    return row;
  }

  /** The user's request `id`, locked when asked. */
  async resetRequest(userId: string, id: string, lock = false): Promise<ResetRequestRow | undefined> {
    const [row] = await this.db.query<ResetRequestRow>(
      `SELECT ${RESET_COLUMNS} FROM reset_identification_requests WHERE id = $1 AND user_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [id, userId],
    );
    return row;
  }

  async resetRequests(
    userId: string,
    statuses: string[] | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: ResetRequestRow[] }> {
    const params: unknown[] = [userId];
    const only = statuses?.length ? ` AND status = ANY($${params.push(statuses)}::text[])` : '';
    const [{ n }] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM reset_identification_requests WHERE user_id = $1${only}`,
      params,
    );
    const rows = await this.db.query<ResetRequestRow>(
      `SELECT ${RESET_COLUMNS} FROM reset_identification_requests WHERE user_id = $1${only}
        ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: n, rows };
  }

  async decideResetRequest(id: string, decision: { status: 'approved' | 'declined'; by: string; reason: string | null }): Promise<void> {
    await this.db.query(
      `UPDATE reset_identification_requests SET status = $2, decided_by = $3, decision_reason = $4, decided_at = now() WHERE id = $1`,
      [id, decision.status, decision.by, decision.reason],
    );
  }
}
