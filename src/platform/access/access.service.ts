import { Injectable } from '@nestjs/common';
import { GRANTS, Permission, Role, ROLES } from './permissions';

/** The role→permission map, read from the grants in code (access/permissions.ts). */
@Injectable()
export class AccessService {
  private readonly rolePermissions = new Map<Role, ReadonlySet<Permission>>(ROLES.map((r) => [r, new Set(GRANTS[r])]));

  permissionsOf(role: Role): ReadonlySet<Permission> {
    return this.rolePermissions.get(role) ?? new Set();
  }

  rolesHolding(permissions: readonly Permission[]): Role[] {
    return ROLES.filter((role) => permissions.every((p) => this.permissionsOf(role).has(p)));
  }
}
