import { Injectable } from '@nestjs/common';
import { hash } from 'node:crypto';
import type { Role } from '../access/permissions';
import type { Principal, UserStatus } from '../access/principal';
import { Database } from '../database/database';

/** A token with the membership, organization and user it acts for, as one query reads them. */
export interface TokenRow {
  token_id: string;
  user_id: string;
  membership_id: string;
  organization_id: string;
  organization_type: Principal['organizationType'];
  role: Role;
  scope: Principal['scope'];
  user_login: string;
  user_name: string;
  user_status: UserStatus;
  organization_name: string;
  identification_status: string;
  contract_id: string;
  person_type: string;
  expires_at: Date;
}

/** A token as its user's list of sessions shows it: never the token itself. */
export interface SessionRow {
  id: string;
  created_at: Date;
  expires_at: Date;
  address: string | null;
  scope: Principal['scope'];
}

export function hashToken(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}

/** A token's hash as hex (the PrincipalCache's key), in one call: no Hash object per guarded request. */
export function tokenKey(token: string): string {
  return hash('sha256', token, 'hex');
}

/** auth_tokens and login_failures. */
@Injectable()
export class AuthRepository {
  constructor(private readonly db: Database) {}

  /**
   * One query per guarded request: the token by its hash, with the membership, the organization and
   * the user, so handlers that only echo the caller (GET /profiles/my) need no query of their own.
   */
  async liveToken(hash: Buffer): Promise<TokenRow | undefined> {
    const [row] = await this.db.query<TokenRow>(
      `SELECT t.id AS token_id, t.user_id, t.membership_id, m.organization_id, o.type AS organization_type, m.role, t.scope,
              u.login AS user_login, u.name AS user_name, u.status AS user_status,
              o.name AS organization_name, o.identification_status, o.contract_id, o.person_type, t.expires_at
         FROM auth_tokens t
         JOIN memberships m ON m.id = t.membership_id
         JOIN organizations o ON o.id = m.organization_id
         JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now()`,
      [hash],
      { prepare: true },
    );
    return row;
  }

  async insertTokens(
    tokens: string[],
    userId: string,
    membershipIds: string[],
    scope: Principal['scope'],
    expiresAt: Date,
    address: string,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO auth_tokens (token_hash, user_id, membership_id, scope, expires_at, address)
       SELECT unnest($1::bytea[]), $2, unnest($3::uuid[]), $4, $5, $6`,
      [tokens.map(hashToken), userId, membershipIds, scope, expiresAt, address],
    );
  }

  async revoke(tokenId: string): Promise<void> {
    await this.db.query(`UPDATE auth_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [tokenId]);
  }

  /** Revokes every token of the user but `except`; answers how many were live (not yet expired). */
  async revokeAll(userId: string, except: string | null = null): Promise<number> {
    const rows = await this.db.query<{ live: boolean }>(
      `UPDATE auth_tokens SET revoked_at = now()
        WHERE user_id = $1 AND revoked_at IS NULL AND id IS DISTINCT FROM $2 RETURNING expires_at > now() AS live`,
      [userId, except],
    );
    return rows.filter((r) => r.live).length;
  }

  /**
   * Revokes the user's tokens when `when` holds. Sent after every wrong password, also for unknown
   * logins (`userId` null) and for failures that hold no one, so they all cost the same round trips.
   */
  async revokeAllWhen(userId: string | null, when: boolean): Promise<void> {
    await this.db.query(`UPDATE auth_tokens SET revoked_at = now() WHERE user_id = $1 AND $2::boolean AND revoked_at IS NULL`, [
      userId,
      when,
    ]);
  }

  /** The user's live tokens, newest first. */
  async liveSessions(userId: string): Promise<SessionRow[]> {
    return this.db.query<SessionRow>(
      `SELECT id, created_at, expires_at, address, scope FROM auth_tokens
        WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at DESC, id`,
      [userId],
    );
  }

  /** Revokes one live token of the user; false when the user has no such live token. */
  async revokeSession(userId: string, tokenId: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE auth_tokens SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now() RETURNING id`,
      [tokenId, userId],
    );
    return rows.length === 1;
  }

  /**
   * Takes one of the address's failed-login slots of the current minute, atomically, before any
   * password is checked: parallel attempts cannot all read a count under the limit. Answers the
   * minute the slot belongs to, or undefined when none is left (the caller answers 429).
   */
  async takeAttemptSlot(address: string, limit: number): Promise<Date | undefined> {
    const [row] = await this.db.query<{ minute: Date }>(
      `INSERT INTO login_failures AS f (address, minute, failures) VALUES ($1, date_trunc('minute', now()), 1)
       ON CONFLICT (address, minute) DO UPDATE SET failures = f.failures + 1 WHERE f.failures < $2
       RETURNING f.minute`,
      [address, limit],
    );
    return row?.minute;
  }

  /** Forgets the slots of minutes more than an hour old. */
  async sweepAttemptSlots(): Promise<void> {
    await this.db.query(`DELETE FROM login_failures WHERE minute < now() - interval '1 hour'`);
  }

  /** Gives a slot back once the password proved right: only failures count against the address. */
  async giveBackAttemptSlot(address: string, minute: Date): Promise<void> {
    await this.db.query(`UPDATE login_failures SET failures = failures - 1 WHERE address = $1 AND minute = $2 AND failures > 0`, [
      address,
      minute,
    ]);
  }
}
