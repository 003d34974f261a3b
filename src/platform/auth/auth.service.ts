import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AccessService } from '../access/access.service';
import { permissionsBeyond } from '../access/permissions';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { failedLogins, usersHeld } from '../common/metrics';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { SUPPORT_ORGANIZATION_ID } from '../organizations/organization.types';
import { WRONG_CODE, OneTimeCodesService } from '../one-time-codes/one-time-codes.service';
import { NoticesService } from '../messages/notices.service';
import { OutboxService } from '../outbox/outbox.service';
import type { UserAction } from '../user-actions/user-action.types';
import { UserActionsService } from '../user-actions/user-actions.service';
import { PasswordHasher } from '../users/password-hasher';
import { FailedValidation, loginProven, MembershipRow, UserRow, UsersService } from '../users/users.service';
import { AuthRepository } from './auth.repository';
import type {
  AuthorizationResponseDto,
  ChangeMyPasswordDto,
  ChangePasswordDto,
  CodeSentResponseDto,
  PasswordRecoveryConfirmDto,
  MemberDto,
  ReleaseResponseDto,
  SessionDto,
  TokenDto,
} from './dto/authorization.dto';

/** The specification's section 3: the third failed validation in a row puts a user On Hold. */
export const FAILED_VALIDATIONS_BEFORE_HOLD = 3;

/** Added to twice a bcrypt comparison: the least time a wrong password at login takes to answer. */
const FAILURE_FLOOR_MARGIN_MS = 50;
/** The last stretch of that floor, waited out turn by turn of the event loop instead of by a timer. */
const FAILURE_FLOOR_FINE_MS = 2;

/** Who releases a user: a member through the API, or the operator through `npm run admin:release` (recorded as actor `cli`). */
export type Releaser = Principal | 'cli';

const INVALID_CREDENTIALS = () => new ApiError('exception.authorization.invalid_credentials', 'Wrong login or password');
const ON_HOLD = () => new ApiError('exception.authorization.user_on_hold', 'The user is On Hold; an administrator must release them');
const DEACTIVATED = () =>
  new ApiError('exception.authorization.user_deactivated', 'The user is deactivated; an administrator must activate them');

const CODE_SENT: CodeSentResponseDto = {
  status: 'ok',
  message: 'If the login may have a code, one was sent to it',
  action: 'OTP_SENT',
};

type UserCredentials = Pick<
  UserRow,
  'status' | 'password_change_required' | 'temporary_password_expires_at' | 'temporary_password_used_at'
>;

/** Why a temporary password can no longer be used to log in, or undefined while it can. */
export function temporaryPasswordSpent(user: UserCredentials, now = Date.now()): 'expired' | 'used' | undefined {
  if (!user.temporary_password_expires_at || user.temporary_password_expires_at.getTime() <= now) return 'expired';
  if (user.temporary_password_used_at) return 'used';
  return undefined;
}

/**
 * Whether an administrator may release the user: On Hold, or left with a temporary password that
 * expired or was used to log in without the password being changed (else that user could neither
 * log in nor be released). A fresh, unused temporary password is not replaced.
 */
export function awaitsRelease(user: UserCredentials, now = Date.now()): boolean {
  return user.status === 'on_hold' || (user.password_change_required && temporaryPasswordSpent(user, now) !== undefined);
}

/** Logging in and out, tokens and sessions, the three-strike hold, releases and password changes. */
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
    private readonly outbox: OutboxService,
    private readonly codes: OneTimeCodesService,
    private readonly notices: NoticesService,
  ) {}

  /**
   * While the user is On Hold the answer must not depend on the password (issue 29), or guessing would go on
   * through the hold: the password is not even checked, every attempt answers the same paced 403 and counts as
   * a failure (of the user and of the address). A user held between reading them and checking the password
   * (a parallel attempt held them) gets that same answer whichever way the check went.
   */
  async login(login: string, password: string, address: string): Promise<AuthorizationResponseDto> {
    const started = performance.now();
    // Beyond the per-user lockout: an address guessing across many logins is slowed down, before any bcrypt work.
    const { slot, found: user } = await this.attempt(address, () => this.users.findByLogin(login));
    if (user?.status === 'on_hold') throw await this.refuseAttempt(login, address, started);
    // Unknown logins are compared against a dummy hash, so they cost the same time as wrong passwords.
    const valid = await this.hasher.verify(password, user?.password_hash);
    if (!valid || !user) throw await this.refuseAttempt(login, address, started);
    if (user.deactivated_at) throw await this.refuseDeactivated(user, address, slot);

    if (user.password_change_required) {
      const spent = temporaryPasswordSpent(user);
      if (spent) {
        await this.refusedLogin(user, address, slot, `temporary_password_${spent}`);
        throw new ApiError(
          'exception.authorization.temporary_password_expired',
          'The temporary password has expired or was already used; ask an administrator to release you again',
        );
      }
      const temporary = await this.uow.run(async () => {
        const [marked, memberships] = await this.uow.sendTogether(() =>
          Promise.all([this.users.markTemporaryPasswordUsed(user.id, user.password_hash), this.users.memberships(user.id)]),
        );
        if (!marked) return undefined;
        return this.succeed(user, 'password_change', address, memberships, { slot, details: { temporaryPassword: true } });
      });
      // Used by a parallel login meanwhile, or the user was held, deactivated or released again meanwhile.
      if (!temporary) throw await this.refuseChanged(user, login, address, slot, started);
      return temporary;
    }

    const response = await this.uow.run(async (): Promise<AuthorizationResponseDto | undefined> => {
      // The password checked must still be the user's, under the row's lock: a login that read the user before a
      // password change, a recovery, a release or a deactivation and got here after it would otherwise answer a
      // token that change never revoked (issue 43). The memberships the tokens are for, read in the same write.
      const [recorded, memberships] = await this.uow.sendTogether(() =>
        Promise.all([this.users.recordSuccess(user.id, user.password_hash), this.users.memberships(user.id)]),
      );
      if (!recorded) return undefined;
      // LOGIN_CONFIRMATION=always for everyone, or the user's own two-step login (issue 46): the same challenge-bound codes.
      if (this.config.loginConfirmation === 'always' || user.security_settings?.twoFactorsAuthEnabled === true) {
        // The code is bound to this challenge: the confirmation must carry its id (or come from this address).
        const challengeId = await this.codes.challenge(user.login, address, user.locale);
        this.uow.sendWithCommit(() => this.tokens.giveBackAttemptSlot(address, slot));
        return { ...CODE_SENT, message: 'Confirm the login with the code sent to it (POST /authorization/confirm)', challengeId };
      }
      return this.succeed(user, 'full', address, memberships, { slot });
    });
    // Held meanwhile by a parallel failure: answered as if the user had been On Hold from the start; deactivated
    // meanwhile, as a deactivated user; their password replaced meanwhile, as the wrong password it now is.
    if (!response) throw await this.refuseChanged(user, login, address, slot, started);
    return response;
  }

  /** A right password of a deactivated user: told only then (a deactivation is no secret from the user, but it is from others). */
  private async refuseDeactivated(user: UserRow, address: string, slot: Date): Promise<ApiError> {
    await this.refusedLogin(user, address, slot, 'deactivated');
    return DEACTIVATED();
  }

  /** A login refused though its password was right: the address's attempt given back, the refusal in the action log. */
  private async refusedLogin(user: UserRow, address: string, slot: Date, reason: string): Promise<void> {
    await this.tokens.giveBackAttemptSlot(address, slot);
    await this.actions.record({ userId: user.id, action: 'login_failed', login: user.login, address, details: { reason } });
  }

  /**
   * A login whose user changed between reading them and issuing the token: deactivated with the password still
   * theirs, it is refused as a deactivated user's; otherwise (held, or the password replaced) as a failed attempt.
   */
  private async refuseChanged(user: UserRow, login: string, address: string, slot: Date, started: number): Promise<ApiError> {
    const now = await this.users.findById(user.id);
    if (now?.deactivated_at && now.status === 'active' && now.password_hash === user.password_hash) {
      return this.refuseDeactivated(now, address, slot);
    }
    return this.refuseAttempt(login, address, started);
  }

  /**
   * The second step of a confirmed login: the code sent to the login, for the tokens. The code counts only with the
   * challenge the password step answered (`challengeId`), or, with LOGIN_CHALLENGE_BY_ADDRESS, from the address that
   * passed it (the family's web client carries no id): the code alone, from anywhere, is never enough (issue 43).
   */
  async confirmLogin(login: string, otp: string, address: string, challengeId?: string): Promise<AuthorizationResponseDto> {
    const user = await this.users.findByLogin(login);
    // While On Hold the answer is the one a login gets, whatever the code: anyone learns as much at POST /authorization.
    if (user?.status === 'on_hold') throw ON_HOLD();
    const check = { purpose: 'login' as const, target: login.toLowerCase(), code: otp, address, userId: user?.id ?? null };
    return this.codes.consume({ ...check, challengeId, byAddress: this.config.loginChallengeByAddress }, async () => {
      const locked = await this.users.findByLogin(login, true);
      if (!locked) throw WRONG_CODE();
      if (locked.deactivated_at) throw DEACTIVATED();
      // Held since the password was checked (by failures elsewhere): the hold wins.
      const [recorded, memberships] = await this.uow.sendTogether(() =>
        Promise.all([this.users.recordSuccess(locked.id), this.users.memberships(locked.id)]),
      );
      if (!recorded) throw ON_HOLD();
      // The code's transaction ends with this effect (OneTimeCodesService.consume): what succeed sends leaves with its COMMIT.
      return this.succeed(locked, 'full', address, memberships, { details: { confirmed: true } });
    });
  }

  /**
   * A new login code for a live challenge: the one named by `challengeId`, or (LOGIN_CHALLENGE_BY_ADDRESS) the newest
   * passed at this address; it ends when the challenge does. The same answer when there is none (nothing is sent then):
   * new codes come only from a password step.
   */
  async resendLoginCode(login: string, address: string, challengeId?: string): Promise<CodeSentResponseDto> {
    await this.codes.resendChallenge(login.toLowerCase(), address, challengeId, this.config.loginChallengeByAddress);
    return CODE_SENT;
  }

  /**
   * Sends a recovery code to an active user's login, when that login was proven with a code (issue 43: one staff set and
   * nobody proved may be anyone's address); for an unknown login, an unproven one, a user On Hold or deactivated,
   * nothing is sent, the answer is the same.
   */
  async recoverPassword(login: string, address: string): Promise<CodeSentResponseDto> {
    const user = await this.users.findByLogin(login);
    const deliver = user?.status === 'active' && !user.deactivated_at && loginProven(user);
    await this.codes.issue({ purpose: 'password_recovery', target: login.toLowerCase(), address, deliver, locale: user?.locale });
    return CODE_SENT;
  }

  /**
   * Replaces the password with the recovery code; every token of the user is revoked. A user On Hold or deactivated
   * is never recovered (issue 43): a hold or a deactivation burns the codes asked before it, and one that raced it
   * gets the answer of a wrong code; only an administrator undoes either.
   */
  async confirmRecovery(dto: PasswordRecoveryConfirmDto, address: string): Promise<void> {
    const passwordHash = await this.hasher.hash(dto.newUserPassword);
    const target = dto.login.toLowerCase();
    const owner = await this.users.findByLogin(target);
    await this.codes.consume({ purpose: 'password_recovery', target, code: dto.otp, address, userId: owner?.id ?? null }, async () => {
      const user = await this.users.findByLogin(target, true);
      if (!user || user.status !== 'active' || user.deactivated_at) throw WRONG_CODE();
      // Refused before the code is used: the user tries another password with the same code.
      await this.users.refuseRecentPassword(user.id, dto.newUserPassword, 'newUserPassword');
      await this.users.setPassword(user.id, passwordHash, null);
      await this.tokens.revokeAll(user.id);
      await this.actions.record({ userId: user.id, action: 'password_recovered', login: user.login, address });
      await this.notices.account(user, 'password_changed', { how: 'recovered', address });
    });
  }

  async logout(principal: Principal, address: string): Promise<void> {
    await this.uow.run(async () => {
      await this.tokens.revoke(principal.tokenId);
      await this.actions.record({ userId: principal.userId, action: 'logout', address });
    });
  }

  async changePassword(principal: Principal, dto: ChangePasswordDto, address: string): Promise<AuthorizationResponseDto> {
    return (await this.setOwnPassword(principal, { current: dto.currentPassword, next: dto.newPassword }, address, {
      fields: { current: 'currentPassword', next: 'newPassword' },
      keepPresentedToken: false,
    }))!;
  }

  /**
   * The family's `PATCH /profiles/my/password`: the same rules and history, but the presented token stays (the
   * client goes on with it); every other session of the user ends.
   */
  async changeMyPassword(principal: Principal, dto: ChangeMyPasswordDto, address: string): Promise<void> {
    if (dto.confirmPassword !== undefined && dto.confirmPassword !== dto.newUserPassword) {
      throw ApiError.invalid('confirmPassword', 'must equal newUserPassword');
    }
    await this.setOwnPassword(principal, { current: dto.currentUserPassword, next: dto.newUserPassword }, address, {
      fields: { current: 'currentUserPassword', next: 'newUserPassword' },
      keepPresentedToken: true,
    });
  }

  private async setOwnPassword(
    principal: Principal,
    passwords: { current: string; next: string },
    address: string,
    how: { fields: { current: string; next: string }; keepPresentedToken: boolean },
  ): Promise<AuthorizationResponseDto | undefined> {
    const { fields } = how;
    const user = await this.checkCurrentPassword(principal, passwords.current, address, fields.current, 'password_change_failed');
    if (passwords.next === passwords.current) throw ApiError.invalid(fields.next, 'must differ from the current password');
    if (passwords.next.toLowerCase() === user.login) throw ApiError.invalid(fields.next, 'must not be the login');
    await this.users.refuseRecentPassword(user.id, passwords.next, fields.next);
    const passwordHash = await this.hasher.hash(passwords.next);
    return this.uow.run(async () => {
      const locked = await this.users.findById(user.id, true);
      if (!locked || locked.password_hash !== user.password_hash) {
        throw new ApiError('exception.authorization.password_changed_concurrently', 'The password was changed meanwhile; log in again');
      }
      await this.users.setPassword(user.id, passwordHash, null);
      await this.tokens.revokeAll(user.id, how.keepPresentedToken ? principal.tokenId : null);
      await this.actions.record({ userId: user.id, action: 'password_changed', login: user.login, address });
      await this.notices.account(locked, 'password_changed', { how: 'changed', address });
      if (how.keepPresentedToken) return undefined;
      const memberships = await this.users.memberships(user.id);
      const response = this.issue({ ...locked, password_change_required: false }, 'full', address, memberships);
      return { ...response, message: 'Password changed' };
    });
  }

  /**
   * The caller's current password, checked before an act that needs it (a change of password or of login). Guessing it
   * with a stolen token is guessing a password: the same per-address limit as a login (429), and a wrong one counts
   * toward the three-strike hold (recorded as `action`; the third holds the user, which revokes their tokens, the
   * presented one too) and answers a 400 naming `parameter`. The right one clears the count; answers the user.
   */
  async checkCurrentPassword(
    principal: Principal,
    password: string,
    address: string,
    parameter: string,
    action: 'password_change_failed' | 'contact_change_failed',
  ): Promise<UserRow> {
    const { slot, found: user } = await this.attempt(address, () => this.users.findById(principal.userId));
    if (!user) throw new ApiError('exception.authorization.unauthorized');
    if (!(await this.hasher.verify(password, user.password_hash))) {
      await this.countFailedValidation(user.login, address, action);
      throw ApiError.invalid(parameter, 'is not the current password');
    }
    await this.tokens.giveBackAttemptSlot(address, slot);
    await this.users.recordSuccess(user.id);
    return user;
  }

  /** Ends every session of the user but `except` (inside the caller's unit of work); answers how many were live. */
  endSessions(userId: string, except: string | null): Promise<number> {
    return this.tokens.revokeAll(userId, except);
  }

  /**
   * Releases a user with a temporary password, answered once, that only allows changing the password.
   * Through the API: only a user On Hold or left with a spent temporary password, and only by a
   * releaser holding every permission the user's roles grant (else 403: no one takes over an account
   * with powers they lack). Through `npm run admin:release` (`cli`): any user, for recovery.
   */
  async release(target: { id: string } | { login: string }, by: Releaser, address: string | null): Promise<ReleaseResponseDto> {
    const temporaryPassword = this.hasher.temporaryPassword();
    const passwordHash = await this.hasher.hash(temporaryPassword);
    const expiresAt = new Date(Date.now() + this.config.temporaryPasswordTtlSeconds * 1000);
    await this.uow.run(async () => {
      const user = 'id' in target ? await this.users.findById(target.id, true) : await this.users.findByLogin(target.login, true);
      if (!user) throw new ApiError('exception.user.not_found', 'No such user');
      const stoppedCodes = await this.codes.stoppedPurposes(user.login);
      if (by !== 'cli') {
        await this.refuseIfOutranked(by, user.id, 'exception.user.release_forbidden', 'release');
        if (!awaitsRelease(user) && stoppedCodes.length === 0) {
          throw new ApiError(
            'exception.user.not_on_hold',
            'The user is not On Hold, has no spent temporary password to replace, and their one-time codes are not stopped',
          );
        }
      }
      await this.users.setPassword(user.id, passwordHash, expiresAt);
      await this.tokens.revokeAll(user.id);
      // The temporary password is the way back in: codes asked before are void, and the stops on them end.
      const revokedCodes = await this.codes.revoke(user.login, user.id);
      await this.codes.release(user.login);
      await this.actions.record({
        userId: user.id,
        actorUserId: by === 'cli' ? null : by.userId,
        action: 'user_released',
        login: user.login,
        address,
        details: {
          temporaryPasswordExpiresAt: expiresAt.toISOString(),
          wasOnHold: user.status === 'on_hold',
          ...(stoppedCodes.length ? { stoppedCodes } : {}),
          ...(revokedCodes ? { revokedCodes } : {}),
          ...(by === 'cli' ? { actor: 'cli' } : {}),
        },
      });
      await this.notices.account(user, 'user_released');
    });
    return {
      status: 'ok',
      message: 'User released; give them the temporary password',
      temporaryPassword,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /**
   * Staff deactivate a user (`active: false`: their tokens are revoked and they cannot log in) or activate them
   * again, never one holding permissions the actor lacks, nor themselves. Nothing is erased: `DELETE /users/{id}`
   * deactivates too (`how: 'deleted'`), since every user has history — at least their creation in the action log,
   * whose chain covers their id. Answers false when the user already was so (nothing recorded then).
   */
  async setActive(
    userId: string,
    active: boolean,
    actor: Principal,
    address: string,
    how: 'patched' | 'deleted' = 'patched',
  ): Promise<boolean> {
    return this.uow.run(async () => {
      const user = await this.users.findById(userId, true);
      if (!user) throw new ApiError('exception.user.not_found', 'No such user');
      if (user.id === actor.userId) throw new ApiError('exception.user.self_deactivation', 'You may not activate or deactivate yourself');
      await this.refuseIfOutranked(actor, user.id, 'exception.user.status_forbidden', active ? 'activate' : 'deactivate');
      if (!(await this.users.setDeactivated(user.id, !active))) return false;
      const endedSessions = active ? 0 : await this.tokens.revokeAll(user.id);
      // A code asked before the deactivation must not outlive it (issue 43).
      const revokedCodes = active ? 0 : await this.codes.revoke(user.login, user.id);
      await this.actions.record({
        userId: user.id,
        actorUserId: actor.userId,
        action: active ? 'user_activated' : 'user_deactivated',
        login: user.login,
        address,
        details: active
          ? {}
          : { endedSessions, ...(revokedCodes ? { revokedCodes } : {}), ...(how === 'deleted' ? { deleteRequested: true } : {}) },
      });
      if (!active) await this.notices.account(user, 'user_deactivated');
      return true;
    });
  }

  /** The caller's live sessions (tokens), newest first; never the tokens themselves. */
  async sessions(principal: Principal): Promise<SessionDto[]> {
    const rows = await this.tokens.liveSessions(principal.userId);
    return rows.map((r) => ({
      id: r.id,
      createdAt: r.created_at.toISOString(),
      expiresAt: r.expires_at.toISOString(),
      address: r.address,
      scope: r.scope,
      current: r.id === principal.tokenId,
    }));
  }

  /** Ends one of the caller's live sessions (404 for any other id). */
  async endSession(principal: Principal, sessionId: string, address: string): Promise<void> {
    await this.uow.run(async () => {
      if (!(await this.tokens.revokeSession(principal.userId, sessionId))) {
        throw new ApiError('exception.session.not_found', 'You have no live session with this id');
      }
      await this.actions.record({ userId: principal.userId, action: 'session_ended', address, details: { sessionId } });
    });
  }

  /** Ends every session of a user (an administrator's act); answers how many were live. */
  async endSessionsOf(userId: string, actor: Principal, address: string): Promise<number> {
    return this.uow.run(async () => {
      const user = await this.users.findById(userId, true);
      if (!user) throw new ApiError('exception.user.not_found', 'No such user');
      await this.refuseIfOutranked(actor, user.id, 'exception.user.sessions_forbidden', 'end the sessions of');
      const ended = await this.tokens.revokeAll(user.id);
      await this.actions.record({
        userId: user.id,
        actorUserId: actor.userId,
        action: 'sessions_ended',
        login: user.login,
        address,
        details: { endedSessions: ended },
      });
      return ended;
    });
  }

  /** 403 when the user's roles grant a permission the actor lacks (beyond their own organization's). */
  private async refuseIfOutranked(
    actor: Principal,
    userId: string,
    code: 'exception.user.release_forbidden' | 'exception.user.sessions_forbidden' | 'exception.user.status_forbidden',
    act: string,
  ): Promise<void> {
    const roles = (await this.users.memberships(userId)).map((m) => m.role);
    const beyond = permissionsBeyond(actor.permissions, roles);
    if (beyond.length) throw new ApiError(code, `You may not ${act} a user holding permissions you lack (${beyond.join(', ')})`);
  }

  /**
   * Before a password is checked: one of the address's slots of this minute taken (429 when none is left), and the
   * user read by `read`. One transaction, sent in one write with its COMMIT: one round trip. Never inside another
   * transaction, which would hold its locks through the bcrypt work that follows (and commit the slot only with itself).
   */
  private async attempt<T>(address: string, read: () => Promise<T>): Promise<{ slot: Date; found: T }> {
    if (this.uow.current()) throw new Error('A password check must not run inside a transaction');
    const sent = await this.uow.run(async () => ({
      slot: this.uow.sendWithCommit(() => this.tokens.takeAttemptSlot(address, this.config.loginFailuresPerMinute)),
      found: this.uow.sendWithCommit(read),
    }));
    const [slot, found] = await Promise.all([sent.slot, sent.found]);
    if (Math.random() < 0.01) await this.tokens.sweepAttemptSlots();
    if (!slot) {
      throw ApiError.tooManyRequests(
        'Too many failed password checks from this address; retry in a minute',
        60 - new Date().getUTCSeconds(),
      );
    }
    return { slot, found };
  }

  /**
   * Counts a wrong password (at login or as the current password of a change) toward the three-strike
   * hold and records it. The same statements run for unknown logins and for failures that hold no one,
   * so a wrong password takes the same database round trips whether or not the login exists.
   */
  private async countFailedValidation(
    login: string,
    address: string,
    action: 'login_failed' | 'password_change_failed' | 'contact_change_failed',
  ): Promise<FailedValidation | undefined> {
    return this.uow.run(async () => {
      const failure = await this.users.recordFailedValidation(login, FAILED_VALIDATIONS_BEFORE_HOLD);
      const heldBefore = failure?.onHold && !failure.heldNow;
      this.uow.afterCommit(() => {
        failedLogins.inc();
        if (failure?.heldNow) usersHeld.inc();
      });
      // A user On Hold keeps no live token.
      await this.tokens.revokeAllWhen(failure?.userId ?? null, failure?.onHold ?? false);
      const recorded: UserAction[] = failure
        ? [
            {
              userId: failure.userId,
              action: heldBefore && action === 'login_failed' ? 'login_refused_on_hold' : action,
              login: failure.login,
              address,
              details: { failedAttempts: failure.failedAttempts },
            },
          ]
        : [{ userId: null, action, login: login.toLowerCase(), address, details: { reason: 'unknown_login' } }];
      if (failure?.heldNow) {
        // A code asked before the hold (a recovery, a login's) must not undo it: only an administrator releases (issue 43).
        const revokedCodes = await this.codes.revoke(failure.login, failure.userId);
        recorded.push({
          userId: failure.userId,
          action: 'user_held',
          login: failure.login,
          address,
          details: { failedAttempts: failure.failedAttempts, ...(revokedCodes ? { revokedCodes } : {}) },
        });
        // Staff only: the event goes to the operator's support organization, never the user's own.
        await this.outbox.emit('user.on_hold', [SUPPORT_ORGANIZATION_ID], {
          userId: failure.userId,
          login: failure.login,
          failedAttempts: failure.failedAttempts,
        });
        // The owner is told too, at their login: someone tried their password three times.
        const held = await this.users.findById(failure.userId);
        if (held) await this.notices.account(held, 'user_held', { failedAttempts: String(failure.failedAttempts) });
      }
      await this.actions.record(...recorded);
      return failure;
    });
  }

  /**
   * A login refused: counted as a failure, answered no sooner than the floor, with the same answer for every
   * attempt at a user On Hold before it (403) and for any other (401), whether or not the password was checked.
   */
  private async refuseAttempt(login: string, address: string, started: number): Promise<ApiError> {
    const failure = await this.countFailedValidation(login, address, 'login_failed');
    await this.paceFailure(started);
    return failure?.onHold && !failure.heldNow ? ON_HOLD() : INVALID_CREDENTIALS();
  }

  /**
   * A wrong password answers no sooner than twice a bcrypt comparison plus 50 ms after the login
   * began. The statements are the same for known and unknown logins, but PostgreSQL still spends a
   * fraction of a millisecond more writing a real user's row than finding none; under the floor
   * that difference cannot be timed. It costs only failed logins a little time.
   *
   * A timer alone is not exact enough: it counts from the event loop's clock, which is as stale as the work that
   * ran since the loop last read it, and that work differs between the two paths (a rank test over 400 logins saw
   * their medians a few tenths of a millisecond apart, one way or the other). So the timer stops short of the
   * floor and the last two milliseconds are waited out turn by turn of the event loop (never blocking it): the
   * answer leaves at the first turn past the floor on either path.
   */
  private async paceFailure(started: number): Promise<void> {
    const floor = started + 2 * this.hasher.comparisonMs + FAILURE_FLOOR_MARGIN_MS;
    const coarse = floor - FAILURE_FLOOR_FINE_MS - performance.now();
    if (coarse > 0) await sleep(coarse);
    while (performance.now() < floor) await new Promise((resolve) => setImmediate(resolve));
  }

  /** One token per membership; the top-level token is the first membership's. */
  /** A login that succeeded (by password, temporary password or confirmed code): recorded in the action log, then its tokens. */
  private async succeed(
    user: UserRow,
    scope: Principal['scope'],
    address: string,
    memberships: MembershipRow[],
    { slot, details }: { slot?: Date; details?: Record<string, unknown> },
  ): Promise<AuthorizationResponseDto> {
    // A notice of the login when the user's authorizationNotification asks for it: read with the user, no statement
    // otherwise. It may wait for its statement, so it goes before those that leave with the COMMIT.
    await this.notices.login(user, address);
    await this.actions.recordAtCommit({
      userId: user.id,
      action: 'login_succeeded',
      login: user.login,
      address,
      ...(details && { details }),
    });
    // The password proved right: only failures count against the address.
    if (slot) this.uow.sendWithCommit(() => this.tokens.giveBackAttemptSlot(address, slot));
    return this.issue(user, scope, address, memberships);
  }

  /**
   * A token per membership, as the transaction's last statement: it leaves with the COMMIT (UnitOfWork.sendWithCommit),
   * so the caller's transaction sends nothing after it.
   */
  private issue(user: UserRow, scope: Principal['scope'], address: string, memberships: MembershipRow[]): AuthorizationResponseDto {
    if (memberships.length === 0) throw new ApiError('exception.authorization.no_membership', 'The user belongs to no organization');
    const expiresAt = new Date(Date.now() + this.config.tokenTtlSeconds * 1000);
    // A password-change token stands for the first membership only and may do nothing else.
    const issued = scope === 'password_change' ? memberships.slice(0, 1) : memberships;
    const tokens = issued.map(() => randomBytes(32).toString('base64url'));
    this.uow.sendWithCommit(() =>
      this.tokens.insertTokens(
        tokens,
        user.id,
        issued.map((x) => x.membership_id),
        scope,
        expiresAt,
        address,
      ),
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
