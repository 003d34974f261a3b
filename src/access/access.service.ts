import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { query } from '../database/sql';
import { Permission, PERMISSIONS, Role, ROLES } from './permissions';
import type { Principal } from './principal';

interface TokenRow {
  token_id: string;
  user_id: string;
  membership_id: string;
  organization_id: string;
  organization_type: Principal['organizationType'];
  role: Role;
  scope: Principal['scope'];
  user_login: string;
  user_name: string;
  user_status: Principal['user']['status'];
  organization_name: string;
  identification_status: string;
  contract_id: string;
  person_type: string;
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * Resolves tokens to principals and holds the role→permission map. The map is seeded by
 * migrations and loaded once: only a migration changes it, so every node agrees.
 */
@Injectable()
export class AccessService implements OnModuleInit {
  private rolePermissions = new Map<Role, Set<Permission>>();

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    const rows = await query<{ role: Role; permission: Permission }>(
      this.dataSource,
      'SELECT role, permission FROM role_permissions ORDER BY role, permission',
    );
    const known = await query<{ name: string }>(this.dataSource, 'SELECT name FROM permissions');
    const missing = Object.keys(PERMISSIONS).filter((p) => !known.some((k) => k.name === p));
    if (missing.length) throw new Error(`Permissions missing from the database (add a migration): ${missing.join(', ')}`);
    const map = new Map<Role, Set<Permission>>(ROLES.map((r) => [r, new Set<Permission>()]));
    for (const row of rows) map.get(row.role)?.add(row.permission);
    this.rolePermissions = map;
  }

  permissionsOf(role: Role): ReadonlySet<Permission> {
    return this.rolePermissions.get(role) ?? new Set();
  }

  rolesHolding(permissions: readonly Permission[]): Role[] {
    return ROLES.filter((role) => permissions.every((p) => this.permissionsOf(role).has(p)));
  }

  /**
   * One query per guarded request: the token by its hash, with the membership, the organization and
   * the user, so handlers that only echo the caller (GET /profiles/my) need no query of their own.
   */
  async principalFor(token: string): Promise<Principal | undefined> {
    const rows = await query<TokenRow>(
      this.dataSource,
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
    const row = rows[0];
    if (!row) return undefined;
    return {
      tokenId: row.token_id,
      userId: row.user_id,
      membershipId: row.membership_id,
      organizationId: row.organization_id,
      organizationType: row.organization_type,
      role: row.role,
      scope: row.scope,
      permissions: this.permissionsOf(row.role),
      user: { login: row.user_login, name: row.user_name, status: row.user_status },
      organization: {
        name: row.organization_name,
        identificationStatus: row.identification_status,
        contractId: row.contract_id,
        personType: row.person_type,
      },
    };
  }
}
