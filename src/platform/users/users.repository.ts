import { Injectable } from '@nestjs/common';
import type { Role } from '../access/permissions';
import type { UserStatus } from '../access/principal';
import { Database } from '../database/database';
import { containing } from '../database/search-sql';
import type { OrganizationType } from '../organizations/organization.types';

export interface UserRow {
  id: string;
  login: string;
  name: string;
  /**
   * The user's security settings (users.security_settings): `twoFactorsAuthEnabled` asks a code at each login,
   * `authorizationNotification` a notice of each (issue 46).
   */
  security_settings?: { twoFactorsAuthEnabled?: boolean; authorizationNotification?: { email?: boolean; phone?: boolean } };
  /** The language of the user's messages (`de`, `en`…); null: English. */
  locale?: string | null;
  password_hash: string;
  status: UserStatus;
  failed_attempts: number;
  password_change_required: boolean;
  temporary_password_expires_at: Date | null;
  temporary_password_used_at: Date | null;
  held_at: Date | null;
  /** When staff deactivated the user (they cannot log in); null while active. */
  deactivated_at: Date | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  email_verified: boolean;
  phone_number: string | null;
  phone_verified: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A new user: a password (or a temporary one until `temporaryUntil`), names and contact. */
export interface NewUser {
  login: string;
  name: string;
  passwordHash: string;
  temporaryUntil: Date | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phoneNumber: string | null;
}

export interface MembershipRow {
  membership_id: string;
  user_id: string;
  role: Role;
  organization_id: string;
  organization_type: OrganizationType;
  organization_name: string;
  identification_status: string;
  contract_id: string;
  person_type: string;
  contract_name: string;
}

/** A failed validation as counted: `heldNow` when this very failure put the user On Hold. */
export interface FailedValidation {
  userId: string;
  login: string;
  failedAttempts: number;
  onHold: boolean;
  heldNow: boolean;
}

export interface UserSearch {
  ids?: string[];
  identificationStatus?: string[];
  statuses?: string[];
  roles?: string[];
  login?: string;
  text?: string;
  email?: string;
  phone?: string;
  banned?: boolean;
  active?: boolean;
  organizationIds?: string[];
  sort: { column: 'created_at' | 'login' | 'name' | 'status' | 'active'; direction: 'ASC' | 'DESC' };
  offset: number;
  limit: number;
}

const MEMBERSHIP_COLUMNS = `m.id AS membership_id, m.user_id, m.role, o.id AS organization_id, o.type AS organization_type,
  o.name AS organization_name, o.identification_status, o.contract_id, o.person_type,
  (SELECT k.name FROM contracts k WHERE k.id = o.contract_id) AS contract_name`;

/** users and memberships. No rules live here. */
@Injectable()
export class UsersRepository {
  constructor(private readonly db: Database) {}

  async findByLogin(login: string, lock = false): Promise<UserRow | undefined> {
    const [row] = await this.db.query<UserRow>(`SELECT * FROM users WHERE login = $1${lock ? ' FOR UPDATE' : ''}`, [login.toLowerCase()]);
    return row;
  }

  async findById(id: string, lock = false): Promise<UserRow | undefined> {
    const [row] = await this.db.query<UserRow>(`SELECT * FROM users WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return row;
  }

  /** The user with every membership's organization and role, in one query. */
  async withMemberships(id: string): Promise<(UserRow & { memberships: { organizationId: string; roleName: Role }[] }) | undefined> {
    const [row] = await this.db.query<UserRow & { memberships: { organizationId: string; roleName: Role }[] }>(
      `SELECT u.*, (SELECT json_agg(json_build_object('organizationId', m.organization_id, 'roleName', m.role) ORDER BY m.created_at, m.id)
                      FROM memberships m WHERE m.user_id = u.id) AS memberships
         FROM users u WHERE u.id = $1`,
      [id],
    );
    return row;
  }

  async exists(id: string): Promise<boolean> {
    const [row] = await this.db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM users WHERE id = $1) AS found', [id]);
    return row.found;
  }

  async memberships(userIds: string[]): Promise<MembershipRow[]> {
    if (userIds.length === 0) return [];
    return this.db.query<MembershipRow>(
      `SELECT ${MEMBERSHIP_COLUMNS} FROM memberships m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = ANY($1::uuid[]) ORDER BY m.created_at, m.id`,
      [userIds],
    );
  }

  /**
   * Counts a failed validation of the login's password atomically; the failure that reaches `holdAfter`
   * puts the user On Hold. One statement whether or not the login exists (undefined when it does not),
   * so a wrong password costs an unknown login the same round trips as a known one.
   */
  async recordFailedValidation(login: string, holdAfter: number): Promise<FailedValidation | undefined> {
    const [row] = await this.db.query<{ id: string; login: string; old_status: UserStatus; status: UserStatus; failed_attempts: number }>(
      `WITH old AS (SELECT id, status FROM users WHERE login = $1 FOR UPDATE)
       UPDATE users u SET failed_attempts = u.failed_attempts + 1,
              status = CASE WHEN u.failed_attempts + 1 >= $2 THEN 'on_hold' ELSE u.status END,
              held_at = CASE WHEN u.status = 'active' AND u.failed_attempts + 1 >= $2 THEN now() ELSE u.held_at END,
              updated_at = now()
         FROM old WHERE u.id = old.id
       RETURNING u.id, u.login, old.status AS old_status, u.status, u.failed_attempts`,
      [login.toLowerCase(), holdAfter],
    );
    if (!row) return undefined;
    return {
      userId: row.id,
      login: row.login,
      failedAttempts: row.failed_attempts,
      onHold: row.status === 'on_hold',
      heldNow: row.old_status === 'active' && row.status === 'on_hold',
    };
  }

  /**
   * Locks the user's row as a reset of its failures would (UsersService.recordSuccess) and answers its failure count, if
   * the user is still active; with `passwordHash` (the hash a login checked its password against), only when, by the
   * time the lock is granted, the user is not deactivated and that is still their password: the conditions are checked
   * again on the row as the change that held the lock left it.
   */
  async lockActive(userId: string, passwordHash?: string): Promise<{ failed_attempts: number } | undefined> {
    const [row] = await this.db.query<{ failed_attempts: number }>(
      `SELECT failed_attempts FROM users
        WHERE id = $1 AND status = 'active' AND ($2::text IS NULL OR (password_hash = $2 AND deactivated_at IS NULL))
          FOR NO KEY UPDATE`,
      [userId, passwordHash ?? null],
    );
    return row;
  }

  /** Sets the user's failure count back to zero. */
  async resetFailures(userId: string): Promise<void> {
    await this.db.query(`UPDATE users SET failed_attempts = 0, updated_at = now() WHERE id = $1`, [userId]);
  }

  /** Marks the temporary password `passwordHash` used, while it is still the active, not deactivated user's and unused. */
  async markTemporaryPasswordUsed(userId: string, passwordHash: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE users SET temporary_password_used_at = now(), failed_attempts = 0, updated_at = now()
        WHERE id = $1 AND status = 'active' AND deactivated_at IS NULL AND password_hash = $2 AND temporary_password_used_at IS NULL
        RETURNING id`,
      [userId, passwordHash],
    );
    return rows.length === 1;
  }

  async setPassword(userId: string, passwordHash: string, temporaryUntil: Date | null): Promise<void> {
    await this.db.query(
      `UPDATE users SET password_hash = $2, password_change_required = $3, temporary_password_expires_at = $4,
              temporary_password_used_at = NULL, status = 'active', failed_attempts = 0, held_at = NULL, updated_at = now()
        WHERE id = $1`,
      [userId, passwordHash, temporaryUntil !== null, temporaryUntil],
    );
  }

  /** The bcrypt hashes of the user's last `count` chosen passwords, newest first. */
  async recentPasswordHashes(userId: string, count: number): Promise<string[]> {
    const rows = await this.db.query<{ password_hash: string }>(
      `SELECT password_hash FROM password_history WHERE user_id = $1 ORDER BY id DESC LIMIT $2`,
      [userId, count],
    );
    return rows.map((r) => r.password_hash);
  }

  /** Adds a chosen password to the user's history, keeping only the newest `keep`. */
  async rememberPassword(userId: string, passwordHash: string, keep: number): Promise<void> {
    await this.db.query(`INSERT INTO password_history (user_id, password_hash) VALUES ($1, $2)`, [userId, passwordHash]);
    await this.db.query(
      `DELETE FROM password_history WHERE user_id = $1
          AND id < (SELECT min(id) FROM (SELECT id FROM password_history WHERE user_id = $1 ORDER BY id DESC LIMIT $2) newest)`,
      [userId, keep],
    );
  }

  /**
   * Deactivates (or activates again) the user; false when they already were. A deactivated user keeps their row,
   * memberships, money and history: nothing is ever erased.
   */
  async setDeactivated(userId: string, deactivated: boolean): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE users SET deactivated_at = CASE WHEN $2::boolean THEN now() END, updated_at = now()
        WHERE id = $1 AND (deactivated_at IS NULL) = $2::boolean RETURNING id`,
      [userId, deactivated],
    );
    return rows.length === 1;
  }

  /** Inserts a user unless the login is taken; returns undefined when it is. */
  async insertUser(user: NewUser): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO users (login, name, password_hash, password_change_required, temporary_password_expires_at, first_name, last_name, email, phone_number)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (login) DO NOTHING RETURNING id`,
      [
        user.login.toLowerCase(),
        user.name,
        user.passwordHash,
        user.temporaryUntil !== null,
        user.temporaryUntil,
        user.firstName,
        user.lastName,
        user.email,
        user.phoneNumber,
      ],
    );
    return row?.id;
  }

  async insertMembership(userId: string, organizationId: string, role: Role): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO memberships (user_id, organization_id, role) VALUES ($1, $2, $3) RETURNING id`,
      [userId, organizationId, role],
    );
    return row.id;
  }

  async search(search: UserSearch): Promise<{ total: number; rows: UserRow[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (search.ids?.length) where.push(`u.id = ANY($${params.push(search.ids)}::uuid[])`);
    if (search.identificationStatus?.length) {
      where.push(
        `EXISTS (SELECT 1 FROM memberships m JOIN organizations o ON o.id = m.organization_id
                  WHERE m.user_id = u.id AND o.identification_status = ANY($${params.push(search.identificationStatus)}::text[]))`,
      );
    }
    if (search.statuses?.length) where.push(`u.status = ANY($${params.push(search.statuses)}::text[])`);
    if (search.roles?.length) {
      where.push(`EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id AND m.role = ANY($${params.push(search.roles)}::text[]))`);
    }
    if (search.login) {
      where.push(`u.login LIKE $${params.push(containing(search.login.toLowerCase()))}`);
    }
    if (search.text) {
      const text = `$${params.push(containing(search.text))}`;
      where.push(`(u.name ILIKE ${text} OR u.login ILIKE ${text} OR u.email ILIKE ${text} OR u.phone_number ILIKE ${text})`);
    }
    if (search.email) where.push(`u.email ILIKE $${params.push(containing(search.email))}`);
    if (search.phone) where.push(`u.phone_number LIKE $${params.push(containing(search.phone))}`);
    if (search.banned !== undefined) where.push(`(u.status = 'on_hold') = $${params.push(search.banned)}::boolean`);
    if (search.active !== undefined) where.push(`(u.deactivated_at IS NULL) = $${params.push(search.active)}::boolean`);
    if (search.organizationIds?.length) {
      where.push(
        `EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id AND m.organization_id = ANY($${params.push(search.organizationIds)}::uuid[]))`,
      );
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ count }] = await this.db.query<{ count: string }>(`SELECT count(*) AS count FROM users u ${clause}`, params);
    const order = search.sort.column === 'active' ? '(u.deactivated_at IS NULL)' : `u.${search.sort.column}`;
    const rows = await this.db.query<UserRow>(
      `SELECT u.* FROM users u ${clause} ORDER BY ${order} ${search.sort.direction}, u.id LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { total: Number(count), rows };
  }
}
