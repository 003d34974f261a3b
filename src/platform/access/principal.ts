import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../common/http';
import type { TransactionMeta } from '../database/unit-of-work';
import type { OrganizationType } from '../organizations/organization.types';
import { Permission, Role, STAFF_ROLES } from './permissions';

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

/** The operator's own organizations: whoever acts as one of their members acts as staff, whatever the role. */
const STAFF_ORGANIZATION_TYPES: readonly OrganizationType[] = ['system', 'support', 'cash_desk'];

/** Whether the principal acts as the operator's staff (a staff role, a cashier among them, or a member of the operator). */
export function isStaff(principal: Pick<Principal, 'role' | 'organizationType'>): boolean {
  return STAFF_ROLES.includes(principal.role) || STAFF_ORGANIZATION_TYPES.includes(principal.organizationType);
}

/** What a request acting as the principal says about itself to the transactions it opens (and the ledger). */
export function principalMeta(principal: Principal, requestId: string | undefined): TransactionMeta {
  return {
    actorUserId: principal.userId,
    actorRole: principal.role,
    actorOrganizationId: principal.organizationId,
    staff: isStaff(principal),
    requestId,
  };
}

/** A request after the guard: the principal is there on every guarded route. */
export type ApiRequest = FastifyRequest & {
  principal?: Principal;
  /** The JSON body as it arrived (set by the body parser), for signatures computed over the exact bytes. */
  rawBody?: string;
};

/** The property Passport attaches the principal to. */
export const PRINCIPAL_PROPERTY = 'principal';

/** Injects the caller (the Principal of the request's token) into a handler parameter: `@Caller() caller: Principal`. */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const request = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!request.principal) throw new Error('Caller used on a public route');
  return request.principal;
});

/** Injects the caller's address (see clientAddress: behind a proxy, set TRUST_PROXY): `@ClientAddress() address: string`. */
export const ClientAddress = createParamDecorator((_: unknown, ctx: ExecutionContext): string =>
  clientAddress(ctx.switchToHttp().getRequest<ApiRequest>()),
);
