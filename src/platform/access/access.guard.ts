import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { Reflector } from '@nestjs/core';
import { AuthGuard, AuthGuardAuthenticateOptions } from '@nestjs/passport';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { setRequestMeta } from '../database/request-timing';
import { ACCESS_KEY, AccessRule } from './access.decorators';
import { ApiRequest, Principal, PRINCIPAL_PROPERTY, principalMeta } from './principal';

/** The name of the Passport strategy that turns an Authorization header into a Principal (auth/bearer.strategy.ts). */
export const BEARER_STRATEGY = 'bearer';

/**
 * The global guard. It fails closed: a route without access metadata is denied to everyone.
 * Authentication is Passport's (the `bearer` strategy, or any strategy a team adds beside it);
 * this guard only reads the principal Passport attached and checks the route's permissions.
 */
@Injectable()
export class AccessGuard extends AuthGuard(BEARER_STRATEGY) {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  override getAuthenticateOptions(): AuthGuardAuthenticateOptions {
    return { session: false, property: PRINCIPAL_PROPERTY };
  }

  /** Each handler's rule, read from its metadata once (null: it declares none). */
  private readonly rules = new WeakMap<object, AccessRule | null>();

  private ruleOf(context: ExecutionContext): AccessRule | undefined {
    const handler = context.getHandler();
    let rule = this.rules.get(handler);
    if (rule === undefined) {
      rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_KEY, [handler, context.getClass()]) ?? null;
      this.rules.set(handler, rule);
    }
    return rule ?? undefined;
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.ruleOf(context);
    if (!rule) throw new ApiError('exception.access.undeclared', 'This route declares no access rule');
    if (rule.public) return true;
    if (rule.staticToken && this.presentsStaticToken(context, this.config[rule.staticToken])) return true;

    await super.canActivate(context);
    const request = context.switchToHttp().getRequest<ApiRequest>();
    const principal = request.principal;
    if (!principal) throw new ApiError('exception.authorization.token_invalid', 'The token is unknown, expired or revoked');
    // Every transaction the request opens carries who it acts for (the ledger stamps it, and records staff's postings).
    setRequestMeta(principalMeta(principal, String(request.id)));

    if (principal.scope === 'password_change' && !rule.allowPasswordChange) {
      throw new ApiError(
        'exception.authorization.password_change_required',
        'Change the temporary password first (POST /api/v1/authorization/password)',
      );
    }
    const missing = rule.permissions.filter((p) => !principal.permissions.has(p));
    if (missing.length) throw new ApiError('exception.access.permission_missing', `Requires permission ${missing.join(', ')}`);
    return true;
  }

  /** True when the request's Authorization is `Bearer <secret>` (compared in constant time); never when the secret is unset. */
  private presentsStaticToken(context: ExecutionContext, secret: string | undefined): boolean {
    const header = context.switchToHttp().getRequest<ApiRequest>().headers.authorization;
    if (!secret || typeof header !== 'string') return false;
    const presented = Buffer.from(header);
    const expected = Buffer.from(`Bearer ${secret}`);
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  }

  /** Errors of the strategy (missing, malformed or unknown token) keep their own codes. */
  override handleRequest<TUser = Principal>(error: unknown, principal: TUser | false): TUser {
    if (error) throw error;
    if (!principal) throw new ApiError('exception.authorization.token_invalid', 'The token is unknown, expired or revoked');
    return principal;
  }
}
