import { createParamDecorator, ExecutionContext } from '@nestjs/common';
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
}

/** Injects the caller's Principal into a handler parameter. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const request = ctx.switchToHttp().getRequest<{ principal?: Principal }>();
  if (!request.principal) throw new Error('CurrentPrincipal used on a public route');
  return request.principal;
});
