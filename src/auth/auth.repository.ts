import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
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
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** auth_tokens and login_failures. */
@Injectable()
export class AuthRepository {
  constructor(private readonly db: Database) {}

  /**
   * One query per guarded request: the token by its hash, with the membership, the organization and
   * the user, so handlers that only echo the caller (GET /profiles/my) need no query of their own.
   */
  async liveToken(token: string): Promise<TokenRow | undefined> {
    const [row] = await this.db.query<TokenRow>(
      `SELECT t.id AS token_id, t.user_id, t.membership_id, m.organization_id, o.type AS organization_type, m.role, t.scope,
              u.login AS user_login, u.name AS user_name, u.status AS user_status,
              o.name AS organization_name, o.identification_status, o.contract_id, o.person_type
         FROM auth_tokens t
         JOIN memberships m ON m.id = t.membership_id
         JOIN organizations o ON o.id = m.organization_id
         JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now()`,
      [hashToken(token)],
    );
    return row;
  }

  async insertTokens(tokens: string[], userId: string, membershipIds: string[], scope: Principal['scope'], expiresAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO auth_tokens (token_hash, user_id, membership_id, scope, expires_at)
       SELECT unnest($1::bytea[]), $2, unnest($3::uuid[]), $4, $5`,
      [tokens.map(hashToken), userId, membershipIds, scope, expiresAt],
    );
  }

  async revoke(tokenId: string): Promise<void> {
    await this.db.query(`UPDATE auth_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [tokenId]);
  }

  async revokeAll(userId: string): Promise<void> {
    await this.db.query(`UPDATE auth_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [userId]);
  }

  /** Failed logins from an address in the current minute. */
  async recentFailures(address: string): Promise<number> {
    const [row] = await this.db.query<{ failures: number }>(
      `SELECT failures FROM login_failures WHERE address = $1 AND minute = date_trunc('minute', now())`,
      [address],
    );
    return row?.failures ?? 0;
  }

  /** Counts a failed login from an address; now and then drops counts older than an hour. */
  async countFailure(address: string): Promise<void> {
    await this.db.query(
      `INSERT INTO login_failures (address, minute, failures) VALUES ($1, date_trunc('minute', now()), 1)
       ON CONFLICT (address, minute) DO UPDATE SET failures = login_failures.failures + 1`,
      [address],
    );
    if (Math.random() < 0.01) await this.db.query(`DELETE FROM login_failures WHERE minute < now() - interval '1 hour'`);
  }
}
