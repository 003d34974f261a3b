import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { WRONG_CODE, OneTimeCodesService } from '../../platform/one-time-codes/one-time-codes.service';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { PasswordHasher } from '../../platform/users/password-hasher';
import { UsersService } from '../../platform/users/users.service';
import type { ProfileDataDto } from '../profiles/dto/profile.dto';
import { ProfilesService } from '../profiles/profiles.service';
import type { RegistrationConfirmDto, RegistrationDto } from './dto/registration.dto';
import { ContactKind, RegistrationRepository } from './registration.repository';

const kindOf = (login: string): ContactKind => (login.includes('@') ? 'email' : 'phone');

/**
 * Signing up with a code sent to the login (issue 31), and changing one's login the same way. An existing login
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
      await this.contacts.markVerified(userId, kindOf(login));
    });
  }

  /** Sends a code to the new login; it becomes the caller's when they confirm it. */
  async requestContactChange(principal: Principal, login: string, address: string): Promise<void> {
    const target = login.toLowerCase();
    const holder = await this.users.findByLogin(target);
    if (holder?.id === principal.userId) throw ApiError.invalid('login', 'is already your login');
    await this.codes.issue({ purpose: 'contact_change', target, address, payload: { userId: principal.userId }, deliver: !holder });
  }

  /**
   * With the code sent to the new login: it becomes the caller's contact of its kind (e-mail or phone), verified,
   * and their login too when the login is of that kind (an e-mail login stays when a phone number is added).
   */
  async confirmContactChange(principal: Principal, login: string, otp: string, address: string): Promise<ProfileDataDto> {
    const target = login.toLowerCase();
    // The caller is named on the record if their guesses stop the codes of that login.
    const check = { purpose: 'contact_change' as const, target, code: otp, address, userId: principal.userId };
    await this.codes.consume(check, async (payload) => {
      if (payload.userId !== principal.userId) throw WRONG_CODE();
      const user = await this.users.findById(principal.userId, true);
      if (!user) throw new ApiError('exception.authorization.token_invalid');
      const kind = kindOf(target);
      const asLogin = kindOf(user.login) === kind;
      if (!(await this.contacts.setContact(user.id, kind, target, asLogin))) {
        throw new ApiError('exception.user.login_taken', 'A user with this login already exists');
      }
      await this.actions.record({
        userId: user.id,
        action: 'login_changed',
        login: asLogin ? target : user.login,
        details: { kind, from: kind === 'email' ? user.email : user.phone_number, to: target, login: asLogin },
      });
    });
    return (await this.profiles.my(principal)).profile;
  }

  private refuseUnlessOpen(role: string): void {
    const open =
      (role === 'individual' && this.config.selfRegistrationIndividuals) || (role === 'merchant' && this.config.selfRegistrationMerchants);
    if (!open) throw new ApiError('exception.registration.disabled', `Signing up yourself as ${role} is not open; ask the operator`);
  }
}
