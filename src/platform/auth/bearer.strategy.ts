import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { BEARER_STRATEGY } from '../access/access.guard';
import { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { AuthRepository, tokenKey } from './auth.repository';
import { PrincipalCache } from './principal-cache';

const SCHEME = /^(?:Bearer|TOKEN)\s+([A-Za-z0-9_\-.~+/=]{16,512})\s*$/i;

/** The one route a token may come in the path: the family's file links, `GET /media-files/{id}/{token}`. */
export const FILE_LINK_ROUTE = /\/media-files\/:id\/:name$/;
const TOKEN = /^[A-Za-z0-9_\-.~+/=]{16,512}$/;

/**
 * The family's clients show a document's scan as an image whose address carries the token (`<img src>` sends no
 * header): on that route only, with no Authorization header, the last path segment is taken as the token. The
 * request log writes that segment redacted (logging.ts), and the answer is neither cached nor referred.
 */
function fileLinkToken(request: FastifyRequest): string | undefined {
  if (request.method !== 'GET' || !FILE_LINK_ROUTE.test(request.routeOptions?.url ?? '')) return undefined;
  const name = (request.params as { name?: string } | undefined)?.name;
  return name && TOKEN.test(name) ? name : undefined;
}

/**
 * The bearer strategy over the service's opaque stored tokens: `Authorization: Bearer <token>`
 * or `Authorization: TOKEN <token>` (existing clients send the latter). It answers the Principal
 * the access guard checks permissions on; an SSO or API-key strategy would sit beside it.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, BEARER_STRATEGY) {
  constructor(
    private readonly tokens: AuthRepository,
    private readonly access: AccessService,
    private readonly cache: PrincipalCache,
  ) {
    super();
  }

  async validate(request: FastifyRequest): Promise<Principal> {
    const header = request.headers.authorization;
    const token = header ? SCHEME.exec(header)?.[1] : fileLinkToken(request);
    if (!header && !token) throw new ApiError('exception.authorization.token_missing', 'Send Authorization: Bearer <token>');
    if (!token) {
      throw new ApiError('exception.authorization.token_malformed', 'Authorization must be "Bearer <token>" or "TOKEN <token>"');
    }
    const key = tokenKey(token);
    const row = await this.cache.resolve(key, () => this.tokens.liveToken(Buffer.from(key, 'hex')));
    if (!row) throw new ApiError('exception.authorization.token_invalid', 'The token is unknown, expired or revoked');
    return {
      tokenId: row.token_id,
      userId: row.user_id,
      membershipId: row.membership_id,
      organizationId: row.organization_id,
      organizationType: row.organization_type,
      role: row.role,
      scope: row.scope,
      permissions: this.access.permissionsOf(row.role),
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
