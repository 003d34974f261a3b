import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { UserActionsService } from '../user-actions/user-actions.service';
import { PasswordHasher } from '../users/password-hasher';
import { MembershipRow, UserRow, UsersService } from '../users/users.service';
import { AuthRepository } from './auth.repository';
import type { AuthorizationResponseDto, ChangePasswordDto, MemberDto, ReleaseResponseDto, TokenDto } from './dto/authorization.dto';

/** The specification's section 3: the third failed validation in a row puts a user On Hold. */
export const FAILED_VALIDATIONS_BEFORE_HOLD = 3;

const INVALID_CREDENTIALS = () => new ApiError('exception.authorization.invalid_credentials', 'Wrong login or password');

/** Logging in and out, tokens, the three-strike hold, releases and password changes. */
@Injectable()
export class AuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: AuthRepository,
    private readonly users: UsersService,
    private readonly actions: UserActionsService,
    private readonly hasher: PasswordHasher,
    private readonly access: AccessService,
    private readonly uow: UnitOfWork,
  ) {}

  async login(login: string, password: string, address: string): Promise<AuthorizationResponseDto> {
    // Beyond the per-user lockout: an address guessing across many logins is slowed down, before any bcrypt work.
    if ((await this.tokens.recentFailures(address)) >= this.config.loginFailuresPerMinute) {
      throw ApiError.tooManyRequests('Too many failed logins from this address; retry in a minute', 60 - new Date().getUTCSeconds());
    }
    const user = await this.users.findByLogin(login);
    // Unknown logins are compared against a dummy hash, so they cost the same time as wrong passwords.
    const valid = await this.hasher.verify(password, user?.password_hash);
    if (!valid) await this.tokens.countFailure(address);
    if (!user) {
      await this.actions.record({
        userId: null,
        action: 'login_failed',
        login: login.toLowerCase(),
        address,
        details: { reason: 'unknown_login' },
      });
      throw INVALID_CREDENTIALS();
    }
    if (!valid) {
      await this.uow.run(async () => {
        const result = await this.users.recordFailure(user.id, FAILED_VALIDATIONS_BEFORE_HOLD);
        await this.actions.record({
          userId: user.id,
          action: 'login_failed',
          login: user.login,
          address,
          details: { failedAttempts: result.failedAttempts },
        });
        if (result.wasActive && result.status === 'on_hold') {
          await this.tokens.revokeAll(user.id);
          await this.actions.record({
            userId: user.id,
            action: 'user_held',
            login: user.login,
            address,
            details: { failedAttempts: result.failedAttempts },
          });
        }
      });
      throw INVALID_CREDENTIALS();
    }
    if (user.status === 'on_hold') throw await this.refuseOnHold(user, address);

    if (user.password_change_required) {
      const expired = !user.temporary_password_expires_at || user.temporary_password_expires_at.getTime() <= Date.now();
      if (expired || user.temporary_password_used_at) {
        await this.actions.record({
          userId: user.id,
          action: 'login_failed',
          login: user.login,
          address,
          details: { reason: expired ? 'temporary_password_expired' : 'temporary_password_used' },
        });
        throw new ApiError(
          'exception.authorization.temporary_password_expired',
          'The temporary password has expired or was already used; ask an administrator to release you again',
        );
      }
      return this.uow.run(async () => {
        if (!(await this.users.markTemporaryPasswordUsed(user.id))) throw INVALID_CREDENTIALS();
        await this.actions.record({
          userId: user.id,
          action: 'login_succeeded',
          login: user.login,
          address,
          details: { temporaryPassword: true },
        });
        return this.issue(user, 'password_change');
      });
    }

    const response = await this.uow.run(async () => {
      if (!(await this.users.recordSuccess(user.id))) return undefined;
      await this.actions.record({ userId: user.id, action: 'login_succeeded', login: user.login, address });
      return this.issue(user, 'full');
    });
    if (!response) throw await this.refuseOnHold(user, address);
    return response;
  }

  async logout(principal: Principal, address: string): Promise<void> {
    await this.uow.run(async () => {
      await this.tokens.revoke(principal.tokenId);
      await this.actions.record({ userId: principal.userId, action: 'logout', address });
    });
  }

  async changePassword(principal: Principal, dto: ChangePasswordDto, address: string): Promise<AuthorizationResponseDto> {
    const user = await this.users.findById(principal.userId);
    if (!user) throw new ApiError('exception.authorization.unauthorized');
    if (!(await this.hasher.verify(dto.currentPassword, user.password_hash))) {
      throw ApiError.invalid('currentPassword', 'is not the current password');
    }
    if (dto.newPassword === dto.currentPassword) throw ApiError.invalid('newPassword', 'must differ from the current password');
    const passwordHash = await this.hasher.hash(dto.newPassword);
    return this.uow.run(async () => {
      const locked = await this.users.findById(user.id, true);
      if (!locked || locked.password_hash !== user.password_hash) {
        throw new ApiError('exception.authorization.password_changed_concurrently', 'The password was changed meanwhile; log in again');
      }
      await this.users.setPassword(user.id, passwordHash, null);
      await this.tokens.revokeAll(user.id);
      await this.actions.record({ userId: user.id, action: 'password_changed', login: user.login, address });
      const response = await this.issue({ ...locked, password_change_required: false }, 'full');
      return { ...response, message: 'Password changed' };
    });
  }

  /** Releases a user On Hold: a temporary password, shown once, that only allows changing the password. */
  async release(id: string, actor: Principal, address: string): Promise<ReleaseResponseDto> {
    const temporaryPassword = this.hasher.temporaryPassword();
    const passwordHash = await this.hasher.hash(temporaryPassword);
    const expiresAt = new Date(Date.now() + this.config.temporaryPasswordTtlSeconds * 1000);
    await this.uow.run(async () => {
      const user = await this.users.findById(id, true);
      if (!user) throw new ApiError('exception.user.not_found', 'No such user');
      if (user.status !== 'on_hold') throw new ApiError('exception.user.not_on_hold', 'The user is not On Hold');
      await this.users.setPassword(id, passwordHash, expiresAt);
      await this.tokens.revokeAll(id);
      await this.actions.record({
        userId: id,
        actorUserId: actor.userId,
        action: 'user_released',
        login: user.login,
        address,
        details: { temporaryPasswordExpiresAt: expiresAt.toISOString() },
      });
    });
    return {
      status: 'ok',
      message: 'User released; give them the temporary password',
      temporaryPassword,
      expiresAt: expiresAt.toISOString(),
    };
  }

  private async refuseOnHold(user: UserRow, address: string): Promise<ApiError> {
    await this.actions.record({ userId: user.id, action: 'login_refused_on_hold', login: user.login, address });
    return new ApiError('exception.authorization.user_on_hold', 'The user is On Hold; an administrator must release them');
  }

  /** One token per membership; the top-level token is the first membership's. */
  private async issue(user: UserRow, scope: Principal['scope']): Promise<AuthorizationResponseDto> {
    const memberships = await this.users.memberships(user.id);
    if (memberships.length === 0) throw new ApiError('exception.authorization.no_membership', 'The user belongs to no organization');
    const expiresAt = new Date(Date.now() + this.config.tokenTtlSeconds * 1000);
    // A password-change token stands for the first membership only and may do nothing else.
    const issued = scope === 'password_change' ? memberships.slice(0, 1) : memberships;
    const tokens = issued.map(() => randomBytes(32).toString('base64url'));
    await this.tokens.insertTokens(
      tokens,
      user.id,
      issued.map((x) => x.membership_id),
      scope,
      expiresAt,
    );
    const token = (i: number): TokenDto => ({ token: tokens[i], expiresAt: expiresAt.toISOString() });
    return {
      status: 'ok',
      message: scope === 'password_change' ? 'Change the temporary password to continue' : 'Token created',
      action: scope === 'password_change' ? 'PASSWORD_CHANGE_REQUIRED' : 'TOKEN_CREATED',
      authorizationToken: token(0),
      members: issued.map((membership, i) => ({ ...this.member(user, membership, scope), token: token(i) })),
    };
  }

  private member(user: Pick<UserRow, 'id' | 'name'>, m: MembershipRow, scope: Principal['scope']): Omit<MemberDto, 'token'> {
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
