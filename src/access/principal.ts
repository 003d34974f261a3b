import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { OrganizationType } from '../organizations/organization.types';
import type { Permission, Role } from './permissions';

export type UserStatus = 'active' | 'on_hold';

/** Who is calling: the membership a token acts as, attached to the request by the authentication strategy. */
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

/** A request after the guard: the principal is there on every guarded route. */
export type ApiRequest = FastifyRequest & {
  principal?: Principal;
  /** The JSON body as it arrived (set by the body parser), for signatures computed over the exact bytes. */
  rawBody?: string;
};

/** The property Passport attaches the principal to. */
export const PRINCIPAL_PROPERTY = 'principal';

/** Injects the caller's Principal into a handler parameter. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const request = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!request.principal) throw new Error('CurrentPrincipal used on a public route');
  return request.principal;
});
