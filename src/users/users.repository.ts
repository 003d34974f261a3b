import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { query } from '../database/sql';
import type { OrganizationType, Role } from '../access/permissions';
import type { UserActionKind, UserStatus } from './users.types';

export interface UserRow {
  id: string;
  login: string;
  name: string;
  password_hash: string;
  status: UserStatus;
  failed_attempts: number;
  password_change_required: boolean;
  temporary_password_expires_at: Date | null;
  temporary_password_used_at: Date | null;
  held_at: Date | null;
  created_at: Date;
  updated_at: Date;
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
}

export interface ActionRecord {
  userId: string | null;
  actorUserId?: string | null;
  action: UserActionKind;
  login?: string | null;
  address?: string | null;
  details?: Record<string, unknown>;
}

const MEMBERSHIP_COLUMNS = `m.id AS membership_id, m.user_id, m.role, o.id AS organization_id, o.type AS organization_type,
  o.name AS organization_name, o.identification_status, o.contract_id, o.person_type`;

/** Data access for users, organizations, memberships and user actions. No rules live here. */
@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private db(manager?: EntityManager): DataSource | EntityManager {
    return manager ?? this.dataSource;
  }

  async findByLogin(login: string, manager?: EntityManager): Promise<UserRow | undefined> {
    const rows = await query<UserRow>(this.db(manager), 'SELECT * FROM users WHERE login = $1', [login.toLowerCase()]);
    return rows[0];
  }

  async findById(id: string, manager?: EntityManager, lock = false): Promise<UserRow | undefined> {
    const rows = await query<UserRow>(this.db(manager), `SELECT * FROM users WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0];
  }

  async memberships(userIds: string[], manager?: EntityManager): Promise<MembershipRow[]> {
    if (userIds.length === 0) return [];
    return query<MembershipRow>(
      this.db(manager),
      `SELECT ${MEMBERSHIP_COLUMNS} FROM memberships m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = ANY($1::uuid[]) ORDER BY m.created_at, m.id`,
      [userIds],
    );
  }

  /**
   * Counts a failed validation atomically; the third in a row puts the user On Hold.
   * Returns the state before and after, so the caller knows whether this attempt caused the hold.
   */
  async recordFailure(
    userId: string,
    holdAfter: number,
    manager: EntityManager,
  ): Promise<{ wasActive: boolean; status: UserStatus; failedAttempts: number }> {
    const rows = await query<{ old_status: UserStatus; status: UserStatus; failed_attempts: number }>(
      manager,
      `WITH old AS (SELECT id, status FROM users WHERE id = $1 FOR UPDATE)
       UPDATE users u SET failed_attempts = u.failed_attempts + 1,
              status = CASE WHEN u.failed_attempts + 1 >= $2 THEN 'on_hold' ELSE u.status END,
              held_at = CASE WHEN u.status = 'active' AND u.failed_attempts + 1 >= $2 THEN now() ELSE u.held_at END,
              updated_at = now()
         FROM old WHERE u.id = old.id
       RETURNING old.status AS old_status, u.status, u.failed_attempts`,
      [userId, holdAfter],
    );
    const row = rows[0];
    return { wasActive: row.old_status === 'active', status: row.status, failedAttempts: row.failed_attempts };
  }

  /** Resets the failure count if the user is still active; false if a parallel failure held them. */
  async recordSuccess(userId: string, manager: EntityManager): Promise<boolean> {
    const rows = await query<{ id: string }>(
      manager,
      `UPDATE users SET failed_attempts = 0, updated_at = now() WHERE id = $1 AND status = 'active' RETURNING id`,
      [userId],
    );
    return rows.length === 1;
  }

  async markTemporaryPasswordUsed(userId: string, manager: EntityManager): Promise<boolean> {
    const rows = await query<{ id: string }>(
      manager,
      `UPDATE users SET temporary_password_used_at = now(), failed_attempts = 0, updated_at = now()
        WHERE id = $1 AND status = 'active' AND temporary_password_used_at IS NULL RETURNING id`,
      [userId],
    );
    return rows.length === 1;
  }

  async setPassword(userId: string, passwordHash: string, temporaryUntil: Date | null, manager: EntityManager): Promise<void> {
    await query(
      manager,
      `UPDATE users SET password_hash = $2, password_change_required = $3, temporary_password_expires_at = $4,
              temporary_password_used_at = NULL, status = 'active', failed_attempts = 0, held_at = NULL, updated_at = now()
        WHERE id = $1`,
      [userId, passwordHash, temporaryUntil !== null, temporaryUntil],
    );
  }

  async revokeTokens(userId: string, manager: EntityManager): Promise<void> {
    await query(manager, `UPDATE auth_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [userId]);
  }

  async createOrganization(type: OrganizationType, name: string, manager: EntityManager): Promise<string> {
    const rows = await query<{ id: string }>(manager, `INSERT INTO organizations (type, name) VALUES ($1, $2) RETURNING id`, [type, name]);
    return rows[0].id;
  }

  async organization(id: string, manager?: EntityManager): Promise<{ id: string; type: OrganizationType } | undefined> {
    const rows = await query<{ id: string; type: OrganizationType }>(this.db(manager), `SELECT id, type FROM organizations WHERE id = $1`, [
      id,
    ]);
    return rows[0];
  }

  /** Inserts a user unless the login is taken; returns undefined when it is. */
  async insertUser(login: string, name: string, passwordHash: string, manager: EntityManager): Promise<string | undefined> {
    const rows = await query<{ id: string }>(
      manager,
      `INSERT INTO users (login, name, password_hash) VALUES ($1, $2, $3) ON CONFLICT (login) DO NOTHING RETURNING id`,
      [login.toLowerCase(), name, passwordHash],
    );
    return rows[0]?.id;
  }

  async insertMembership(userId: string, organizationId: string, role: Role, manager: EntityManager): Promise<string> {
    const rows = await query<{ id: string }>(
      manager,
      `INSERT INTO memberships (user_id, organization_id, role) VALUES ($1, $2, $3) RETURNING id`,
      [userId, organizationId, role],
    );
    return rows[0].id;
  }

  /** Failed logins from an address in the current minute. */
  async recentFailures(address: string): Promise<number> {
    const [row] = await query<{ failures: number }>(
      this.dataSource,
      `SELECT failures FROM login_failures WHERE address = $1 AND minute = date_trunc('minute', now())`,
      [address],
    );
    return row?.failures ?? 0;
  }

  /** Counts a failed login from an address; now and then drops counts older than an hour. */
  async countFailure(address: string): Promise<void> {
    await query(
      this.dataSource,
      `INSERT INTO login_failures (address, minute, failures) VALUES ($1, date_trunc('minute', now()), 1)
       ON CONFLICT (address, minute) DO UPDATE SET failures = login_failures.failures + 1`,
      [address],
    );
    if (Math.random() < 0.01) await query(this.dataSource, `DELETE FROM login_failures WHERE minute < now() - interval '1 hour'`);
  }

  async recordAction(action: ActionRecord, manager?: EntityManager): Promise<void> {
    await query(
      this.db(manager),
      `INSERT INTO user_actions (user_id, actor_user_id, action, login, address, details) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        action.userId,
        action.actorUserId ?? null,
        action.action,
        action.login ?? null,
        action.address ?? null,
        JSON.stringify(action.details ?? {}),
      ],
    );
  }

  async search(
    filter: { statuses?: string[]; roles?: string[]; login?: string },
    sort: { column: string; direction: 'ASC' | 'DESC' },
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: UserRow[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.statuses?.length) {
      params.push(filter.statuses);
      where.push(`u.status = ANY($${params.length}::text[])`);
    }
    if (filter.roles?.length) {
      params.push(filter.roles);
      where.push(`EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id AND m.role = ANY($${params.length}::text[]))`);
    }
    if (filter.login) {
      params.push(`%${filter.login.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c)}%`);
      where.push(`u.login LIKE $${params.length}`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ count }] = await query<{ count: string }>(this.dataSource, `SELECT count(*) AS count FROM users u ${clause}`, params);
    const rows = await query<UserRow>(
      this.dataSource,
      `SELECT u.* FROM users u ${clause} ORDER BY u.${sort.column} ${sort.direction}, u.id LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: Number(count), rows };
  }

  async actions(userId: string, offset: number, limit: number): Promise<{ total: number; rows: Record<string, unknown>[] }> {
    const [{ count }] = await query<{ count: string }>(this.dataSource, `SELECT count(*) AS count FROM user_actions WHERE user_id = $1`, [
      userId,
    ]);
    const rows = await query<Record<string, unknown>>(
      this.dataSource,
      `SELECT id, user_id, actor_user_id, action, login, address, details, created_at FROM user_actions
        WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    );
    return { total: Number(count), rows };
  }
}
