import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../common/api-error';
import type { ApiRequest } from '../common/http';
import { ACCESS_KEY, AccessRule } from './access.decorators';
import { AccessService } from './access.service';

const SCHEME = /^(?:Bearer|TOKEN)\s+([A-Za-z0-9_\-.~+/=]{16,512})\s*$/i;

/** The global guard. It fails closed: a route without access metadata is denied to everyone. */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_KEY, [context.getHandler(), context.getClass()]);
    if (!rule) throw ApiError.forbidden('exception.access.undeclared', 'This route declares no access rule');
    if (rule.public) return true;

    const request = context.switchToHttp().getRequest<ApiRequest>();
    const header = request.headers.authorization;
    if (!header) throw ApiError.unauthorized('exception.authorization.token_missing', 'Send Authorization: Bearer <token>');
    const match = SCHEME.exec(header);
    if (!match)
      throw ApiError.unauthorized('exception.authorization.token_malformed', 'Authorization must be "Bearer <token>" or "TOKEN <token>"');
    const principal = await this.access.principalFor(match[1]);
    if (!principal) throw ApiError.unauthorized('exception.authorization.token_invalid', 'The token is unknown, expired or revoked');
    request.principal = principal;

    if (principal.scope === 'password_change' && !rule.allowPasswordChange) {
      throw ApiError.forbidden(
        'exception.authorization.password_change_required',
        'Change the temporary password first (POST /api/v1/authorization/password)',
      );
    }
    const missing = rule.permissions.filter((p) => !principal.permissions.has(p));
    if (missing.length) throw ApiError.forbidden('exception.access.permission_missing', `Requires permission ${missing.join(', ')}`);
    return true;
  }
}
