import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { hashToken } from '../access/access.service';
import { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { query } from '../database/sql';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { MembershipRow, UserRow, UsersRepository } from '../users/users.repository';
import type { AuthorizationResponseDto, ChangePasswordDto, TokenDto } from './dto/authorization.dto';
import { PasswordHasher } from '../users/password-hasher';

/** The specification's section 3: the third failed validation in a row puts a user On Hold. */
export const FAILED_VALIDATIONS_BEFORE_HOLD = 3;

const INVALID_CREDENTIALS = () => ApiError.unauthorized('exception.authorization.invalid_credentials', 'Wrong login or password');

@Injectable()
export class AuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly access: AccessService,
    private readonly uow: UnitOfWork,
  ) {}

  async login(login: string, password: string, address: string): Promise<AuthorizationResponseDto> {
    // Beyond the per-user lockout: an address guessing across many logins is slowed down, before any bcrypt work.
    if ((await this.users.recentFailures(address)) >= this.config.loginFailuresPerMinute) {
      throw ApiError.tooManyRequests('Too many failed logins from this address; retry in a minute', 60 - new Date().getUTCSeconds());
    }
    const user = await this.users.findByLogin(login);
    // Unknown logins are compared against a dummy hash, so they cost the same time as wrong passwords.
    const valid = await this.hasher.verify(password, user?.password_hash);
    if (!valid) await this.users.countFailure(address);
    if (!user) {
      await this.users.recordAction({
        userId: null,
        action: 'login_failed',
        login: login.toLowerCase(),
        address,
        details: { reason: 'unknown_login' },
      });
      throw INVALID_CREDENTIALS();
    }
    if (!valid) {
      await this.uow.run(async (m) => {
        const result = await this.users.recordFailure(user.id, FAILED_VALIDATIONS_BEFORE_HOLD, m);
        await this.users.recordAction(
          { userId: user.id, action: 'login_failed', login: user.login, address, details: { failedAttempts: result.failedAttempts } },
          m,
        );
        if (result.wasActive && result.status === 'on_hold') {
          await this.users.revokeTokens(user.id, m);
          await this.users.recordAction(
            { userId: user.id, action: 'user_held', login: user.login, address, details: { failedAttempts: result.failedAttempts } },
            m,
          );
        }
      });
      throw INVALID_CREDENTIALS();
    }
    if (user.status === 'on_hold') throw await this.refuseOnHold(user, address);

    if (user.password_change_required) {
      const expired = !user.temporary_password_expires_at || user.temporary_password_expires_at.getTime() <= Date.now();
      if (expired || user.temporary_password_used_at) {
        await this.users.recordAction({
          userId: user.id,
          action: 'login_failed',
          login: user.login,
          address,
          details: { reason: expired ? 'temporary_password_expired' : 'temporary_password_used' },
        });
        throw ApiError.unauthorized(
          'exception.authorization.temporary_password_expired',
          'The temporary password has expired or was already used; ask an administrator to release you again',
        );
      }
      return this.uow.run(async (m) => {
        if (!(await this.users.markTemporaryPasswordUsed(user.id, m))) throw INVALID_CREDENTIALS();
        await this.users.recordAction(
          { userId: user.id, action: 'login_succeeded', login: user.login, address, details: { temporaryPassword: true } },
          m,
        );
        return this.issue(user, 'password_change', m);
      });
    }

    const response = await this.uow.run(async (m) => {
      if (!(await this.users.recordSuccess(user.id, m))) return undefined;
      await this.users.recordAction({ userId: user.id, action: 'login_succeeded', login: user.login, address }, m);
      return this.issue(user, 'full', m);
    });
    if (!response) throw await this.refuseOnHold(user, address);
    return response;
  }

  async logout(principal: Principal, address: string): Promise<void> {
    await this.uow.run(async (m) => {
      await query(m, `UPDATE auth_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [principal.tokenId]);
      await this.users.recordAction({ userId: principal.userId, action: 'logout', address }, m);
    });
  }

  async changePassword(principal: Principal, dto: ChangePasswordDto, address: string): Promise<AuthorizationResponseDto> {
    const user = await this.users.findById(principal.userId);
    if (!user) throw ApiError.unauthorized();
    if (!(await this.hasher.verify(dto.currentPassword, user.password_hash))) {
      throw ApiError.invalid('currentPassword', 'is not the current password');
    }
    if (dto.newPassword === dto.currentPassword) throw ApiError.invalid('newPassword', 'must differ from the current password');
    const passwordHash = await this.hasher.hash(dto.newPassword);
    return this.uow.run(async (m) => {
      const locked = await this.users.findById(user.id, m, true);
      if (!locked || locked.password_hash !== user.password_hash) {
        throw ApiError.conflict(
          'exception.authorization.password_changed_concurrently',
          'The password was changed meanwhile; log in again',
        );
      }
      await this.users.setPassword(user.id, passwordHash, null, m);
      await this.users.revokeTokens(user.id, m);
      await this.users.recordAction({ userId: user.id, action: 'password_changed', login: user.login, address }, m);
      const response = await this.issue({ ...locked, password_change_required: false }, 'full', m);
      return { ...response, message: 'Password changed' };
    });
  }

  private async refuseOnHold(user: UserRow, address: string): Promise<ApiError> {
    await this.users.recordAction({ userId: user.id, action: 'login_refused_on_hold', login: user.login, address });
    return ApiError.forbidden('exception.authorization.user_on_hold', 'The user is On Hold; an administrator must release them');
  }

  /** One token per membership; the top-level token is the first membership's. */
  private async issue(user: UserRow, scope: Principal['scope'], m: EntityManager): Promise<AuthorizationResponseDto> {
    const memberships = await this.users.memberships([user.id], m);
    if (memberships.length === 0) throw ApiError.forbidden('exception.authorization.no_membership', 'The user belongs to no organization');
    const expiresAt = new Date(Date.now() + this.config.tokenTtlSeconds * 1000);
    // A password-change token stands for the first membership only and may do nothing else.
    const issued = scope === 'password_change' ? memberships.slice(0, 1) : memberships;
    const tokens = issued.map(() => randomBytes(32).toString('base64url'));
    await query(
      m,
      `INSERT INTO auth_tokens (token_hash, user_id, membership_id, scope, expires_at)
       SELECT unnest($1::bytea[]), $2, unnest($3::uuid[]), $4, $5`,
      [tokens.map(hashToken), user.id, issued.map((x) => x.membership_id), scope, expiresAt],
    );
    const token = (i: number): TokenDto => ({ token: tokens[i], expiresAt: expiresAt.toISOString() });
    return {
      status: 'ok',
      message: scope === 'password_change' ? 'Change the temporary password to continue' : 'Token created',
      action: scope === 'password_change' ? 'PASSWORD_CHANGE_REQUIRED' : 'TOKEN_CREATED',
      authorizationToken: token(0),
      members: issued.map((membership, i) => ({
        ...this.member(user, membership, scope),
        token: token(i),
      })),
    };
  }

  member(user: Pick<UserRow, 'id' | 'name'>, m: MembershipRow, scope: Principal['scope'] = 'full') {
    return {
      role: m.role,
      user: { id: user.id, name: user.name },
      organization: {
        id: m.organization_id,
        type: m.organization_type,
        name: m.organization_name,
        identificationStatus: m.identification_status,
        contract_info: { id: m.contract_id, personType: m.person_type },
      },
      permissions: scope === 'full' ? [...this.access.permissionsOf(m.role)].sort() : [],
    };
  }
}
