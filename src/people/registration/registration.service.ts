import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { AuthService } from '../../platform/auth/auth.service';
import type { PasswordRecoveryConfirmDto } from '../../platform/auth/dto/authorization.dto';
import { ApiError } from '../../platform/common/api-error';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { WRONG_CODE, OneTimeCodesService } from '../../platform/one-time-codes/one-time-codes.service';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { PasswordHasher } from '../../platform/users/password-hasher';
import { loginKind, loginProven, UserRow, UsersService } from '../../platform/users/users.service';
import type { ProfileDataDto } from '../profiles/dto/profile.dto';
import { ChangeRequest, changeRequest, isRequestOf } from '../profiles/login-change';
import { ProfilesService } from '../profiles/profiles.service';
import type { ContactChangeDto, RegistrationConfirmDto, RegistrationDto } from './dto/registration.dto';
import { ContactKind, RegistrationRepository } from './registration.repository';

/** The kind of contact a login the DTOs let through is (an e-mail address or a phone number). */
const contactKindOf = (login: string): ContactKind => (login.includes('@') ? 'email' : 'phone');

/** The code sent to the current login, then the one sent to the new login: the confirmation of a change asked without the password. */
const BOTH_CODES = /^\d{12}$/;

/** What a restore code puts back: the login, and the contact of the changed kind as it was. */
interface RestorePayload {
  userId: string;
  login: string;
  kind: ContactKind;
  value: string | null;
  verified: boolean;
  /** What it had become (the record's `from`). */
  to: string;
}

/**
 * Signing up with a code sent to the login (issue 31), and changing one's login with the new address and the owner
 * proven (issue 43). An existing login
 * signing up, or a login another user has, gets a stand-in code (never sent): the answer and the rate limits are the
 * same, so neither tells which logins exist.
 */
@Injectable()
export class RegistrationService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly codes: OneTimeCodesService,
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly profiles: ProfilesService,
    private readonly contacts: RegistrationRepository,
    private readonly actions: UserActionsService,
    private readonly auth: AuthService,
    private readonly uow: UnitOfWork,
  ) {}

  async register(dto: RegistrationDto, address: string): Promise<void> {
    const role = dto.role ?? 'individual';
    this.refuseUnlessOpen(role);
    if (role === 'individual' && dto.legalType === 'corporation') throw ApiError.invalid('legalType', 'applies to merchants only');
    const login = dto.login.toLowerCase();
    const taken = await this.users.findByLogin(login);
    const payload = { role, legalType: dto.legalType ?? 'individual' };
    await this.codes.issue({ purpose: 'registration', target: login, address, payload, deliver: !taken });
  }

  async resend(login: string, address: string): Promise<void> {
    await this.codes.resend('registration', login.toLowerCase(), address);
  }

  /** Creates the user with the code sent at sign-up: their organization, their password, the login's contact verified. */
  async confirm(dto: RegistrationConfirmDto, address: string): Promise<void> {
    const login = dto.login.toLowerCase();
    const passwordHash = await this.hasher.hash(dto.password);
    await this.codes.consume({ purpose: 'registration', target: login, code: dto.otp, address, userId: null }, async (payload) => {
      const role = payload.role as 'individual' | 'merchant';
      // The setting may have been turned off since the code was sent.
      this.refuseUnlessOpen(role);
      const userId = await this.users.register(login, role, passwordHash, address);
      await this.contacts.markVerified(userId, contactKindOf(login));
    });
  }

  /**
   * Asks to change the caller's login (or add a contact of the other kind): a code goes to the new login, which proves
   * it; the owner proves themself with `password` (checked as at a password change: a wrong one is a 400 counted toward
   * the hold) or, without it, with a second code sent to their current login. A login another user has gets a stand-in
   * (never sent): the answer is the same. Asking for the login staff asked for sends nothing more (their code stands),
   * and asking for one's own login while nobody proved it (staff gave it) sends it a code that proves it.
   */
  async requestContactChange(principal: Principal, dto: ContactChangeDto, address: string): Promise<void> {
    const target = dto.login.toLowerCase();
    const user = await this.users.findById(principal.userId);
    if (!user) throw new ApiError('exception.authorization.token_invalid');
    if (target === user.login) {
      if (loginProven(user)) throw ApiError.invalid('login', 'is already your login');
      await this.codes.issue({ purpose: 'contact_change', target, address, payload: changeRequest(user, 'self', user.id), deliver: true });
      return;
    }
    if (dto.password === undefined) {
      const asked = await this.codes.pending('contact_change', target);
      if (asked && isRequestOf(asked, user) && asked.proof === 'staff') return;
    }
    const holder = await this.users.findByLogin(target);
    if (dto.password !== undefined) {
      await this.auth.checkCurrentPassword(principal, dto.password, address, 'password', 'contact_change_failed');
      await this.codes.issue({
        purpose: 'contact_change',
        target,
        address,
        payload: changeRequest(user, 'password', user.id),
        deliver: !holder,
      });
      return;
    }
    if (loginKind(user.login) === 'other') {
      throw ApiError.invalid('password', 'is required: your login is no e-mail address nor phone number a code could reach');
    }
    // Both or neither: the limits of either login refuse the pair.
    await this.uow.run(async () => {
      await this.codes.issue({
        purpose: 'contact_change',
        target,
        address,
        payload: changeRequest(user, 'owner_code', user.id),
        deliver: !holder,
      });
      await this.codes.issue({
        purpose: 'contact_change_owner',
        target: user.login,
        address,
        payload: { userId: user.id, to: target },
        deliver: true,
        details: { newLogin: target },
      });
    });
  }

  /**
   * With the code sent to the new login — after the one sent to the current login when the change was asked without
   * the password — the new login becomes the caller's contact of its kind (e-mail or phone), verified, and their login
   * too when the login is of that kind or neither (an e-mail login stays when a phone number is added). Every other
   * session of the caller ends; the old address is told, with a code that takes the login back
   * (LOGIN_CHANGE_UNDO_SECONDS) when it was proven. A change asked by staff is confirmed here by the user, in their own
   * session, with the one code: the member of staff holding it cannot (it is not their change).
   */
  async confirmContactChange(principal: Principal, login: string, otp: string, address: string): Promise<ProfileDataDto> {
    const target = login.toLowerCase();
    const [ownerCode, newCode] = BOTH_CODES.test(otp) ? [otp.slice(0, 6), otp.slice(6)] : [undefined, otp];
    if (ownerCode !== undefined) {
      // Both are checked, and a wrong one counted, before either is used.
      const current = (await this.users.findById(principal.userId))?.login ?? '';
      const ownerRight = await this.codes.verify({
        purpose: 'contact_change_owner',
        target: current,
        code: ownerCode,
        address,
        userId: principal.userId,
      });
      const newRight = await this.codes.verify({ purpose: 'contact_change', target, code: newCode, address, userId: principal.userId });
      if (!ownerRight || !newRight) throw WRONG_CODE();
    }
    // The caller is named on the record if their guesses stop the codes of that login.
    await this.codes.consume({ purpose: 'contact_change', target, code: newCode, address, userId: principal.userId }, async (payload) => {
      const user = await this.users.findById(principal.userId, true);
      if (!user) throw new ApiError('exception.authorization.token_invalid');
      // Another user's code, or the login moved since it was asked (restored, changed otherwise): the code is not for this.
      if (!isRequestOf(payload, user)) throw WRONG_CODE();
      if (payload.proof === 'owner_code') {
        if (ownerCode === undefined) {
          throw ApiError.invalid('otp', 'must be the code sent to your current login followed by the code sent to the new login');
        }
        const ownerCheck = { purpose: 'contact_change_owner' as const, target: user.login, code: ownerCode, address, userId: user.id };
        await this.codes.consume(ownerCheck, async (owner) => {
          if (owner.userId !== user.id || owner.to !== target) throw WRONG_CODE();
        });
      } else if (ownerCode !== undefined) {
        throw WRONG_CODE();
      }
      const kind = contactKindOf(target);
      if (payload.proof === 'self') {
        // The login becomes the contact of its kind too (staff may have given a phone login and no phone number).
        await this.contacts.setContact(user.id, kind, target, false);
        await this.actions.record({
          userId: user.id,
          action: 'contact_verified',
          login: user.login,
          address,
          details: { kind, login: target },
        });
        return;
      }
      await this.changeLogin(user, target, payload, principal.tokenId, address);
    });
    return (await this.profiles.my(principal)).profile;
  }

  /**
   * With the code the old address got when its login changed, and a new password: the login (and the contact of its
   * kind) are back as they were, verified, the password replaced, every session ended. A user On Hold or deactivated
   * is not restored (an administrator first), the code staying usable; a login another user took meanwhile is a 409.
   */
  async restoreContact(dto: PasswordRecoveryConfirmDto, address: string): Promise<void> {
    const target = dto.login.toLowerCase();
    const passwordHash = await this.hasher.hash(dto.newUserPassword);
    await this.codes.consume({ purpose: 'contact_restore', target, code: dto.otp, address, userId: null }, async (payload) => {
      const restore = payload as unknown as RestorePayload;
      const user = await this.users.findById(restore.userId, true);
      if (!user || user.status !== 'active' || user.deactivated_at) throw WRONG_CODE();
      await this.users.refuseRecentPassword(user.id, dto.newUserPassword, 'newUserPassword');
      // The code proved the old login's address again.
      const verified = restore.verified || restore.value === restore.login;
      if (!(await this.contacts.restoreLogin(user.id, restore.login, restore.kind, restore.value, verified))) {
        throw new ApiError('exception.user.login_taken', 'A user with this login already exists');
      }
      await this.users.setPassword(user.id, passwordHash, null);
      const endedSessions = await this.auth.endSessions(user.id, null);
      await this.actions.record({
        userId: user.id,
        action: 'login_restored',
        login: restore.login,
        address,
        details: { kind: restore.kind, from: user.login, to: restore.login, endedSessions },
      });
    });
  }

  /** The change itself, once both proofs are in: the contact and login, the other sessions, the record, the old address told. */
  private async changeLogin(user: UserRow, target: string, request: ChangeRequest, keepToken: string, address: string): Promise<void> {
    const kind = contactKindOf(target);
    const loginIs = loginKind(user.login);
    // A login staff gave (neither an address nor a number) is replaced by the first address the user proves.
    const asLogin = loginIs === kind || loginIs === 'other';
    const previous =
      kind === 'email' ? { value: user.email, verified: user.email_verified } : { value: user.phone_number, verified: user.phone_verified };
    if (!(await this.contacts.setContact(user.id, kind, target, asLogin))) {
      throw new ApiError('exception.user.login_taken', 'A user with this login already exists');
    }
    const endedSessions = await this.auth.endSessions(user.id, keepToken);
    await this.actions.record({
      userId: user.id,
      action: 'login_changed',
      login: asLogin ? target : user.login,
      address,
      details: {
        kind,
        from: previous.value,
        to: target,
        login: asLogin,
        previousLogin: user.login,
        proof: request.proof,
        requestedBy: request.requestedBy,
        confirmedBy: user.id,
        endedSessions,
      },
    });
    if (loginIs === 'other') return;
    // The old login is told; when it was proven (now, by its code, or before), it may take the login back.
    await this.codes.notify(user.login, 'login_changed', { newLogin: target });
    if (request.proof === 'owner_code' || loginProven(user)) {
      const restore: RestorePayload = {
        userId: user.id,
        login: user.login,
        kind,
        value: previous.value,
        verified: previous.verified,
        to: target,
      };
      await this.codes.issue({
        purpose: 'contact_restore',
        target: user.login,
        address,
        payload: { ...restore },
        deliver: true,
        ttlSeconds: this.config.loginChangeUndoSeconds,
        details: { newLogin: target },
        limited: false,
      });
    }
  }

  private refuseUnlessOpen(role: string): void {
    const open =
      (role === 'individual' && this.config.selfRegistrationIndividuals) || (role === 'merchant' && this.config.selfRegistrationMerchants);
    if (!open) throw new ApiError('exception.registration.disabled', `Signing up yourself as ${role} is not open; ask the operator`);
  }
}
