import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { UserStatus } from '../users/users.types';
import type { OrganizationType, Permission, Role } from './permissions';

/** Who is calling: the membership a token acts as, resolved by the global guard. */
export interface Principal {
  tokenId: string;
  userId: string;
  membershipId: string;
  organizationId: string;
  organizationType: OrganizationType;
  role: Role;
  permissions: ReadonlySet<Permission>;
  /** `password_change` tokens may only change the password. */
  scope: 'full' | 'password_change';
  /** The user as read with the token (same query), for answers that echo the caller. */
  user: { login: string; name: string; status: UserStatus };
  /** The membership's organization as read with the token. */
  organization: { name: string; identificationStatus: string; contractId: string; personType: string };
}

/** Injects the caller's Principal into a handler parameter. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const request = ctx.switchToHttp().getRequest<{ principal?: Principal }>();
  if (!request.principal) throw new Error('CurrentPrincipal used on a public route');
  return request.principal;
});
