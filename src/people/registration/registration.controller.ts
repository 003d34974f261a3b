import { Body, Caller, ClientAddress, Principal, Route, Routes } from '../../platform/http';
import { CODE_ERRORS } from '../../platform/auth/code-errors';
import { CodeSentResponseDto, PasswordRecoveredResponseDto, PasswordRecoveryConfirmDto } from '../../platform/auth/dto/authorization.dto';
import * as dto from './dto/registration.dto';
import { RegistrationService } from './registration.service';

const CODE_SENT: CodeSentResponseDto = { status: 'ok', message: 'If the login may have a code, one was sent to it', action: 'OTP_SENT' };
const PUBLIC = { access: 'public', status: 200 } as const;
const OWNER = { access: ['PROFILE_OWNER'], status: 200 } as const;
const LOGIN_TAKEN = ['exception.user.login_taken', 'the login was taken meanwhile'] as const;

/** Signing up yourself (the family's `entrance` screens): a code to the login, then the password with the code. */
@Routes('registration')
export class RegistrationController {
  constructor(private readonly registration: RegistrationService) {}

  /** Public: whoever signs up has no account yet. An existing login gets the same answer (nothing is sent to it). */
  @Route('POST', '', {
    ...PUBLIC,
    summary: 'Sign up: send a code to the login',
    errors: [
      ['exception.registration.disabled', 'signing up is closed for this role (SELF_REGISTRATION_*), and always for staff roles'],
      CODE_ERRORS.sendLimited,
    ],
  })
  async register(@Body() body: dto.RegistrationDto, @ClientAddress() address: string): Promise<CodeSentResponseDto> {
    await this.registration.register(body, address);
    return CODE_SENT;
  }

  /** Public, as above; the code stands for the login. */
  @Route('POST', 'confirm', {
    ...PUBLIC,
    summary: 'Finish signing up: the code and a password',
    errors: [CODE_ERRORS.wrong, ['exception.registration.disabled', 'closed for the role since'], LOGIN_TAKEN, CODE_ERRORS.checkLimited],
  })
  async confirmRegistration(
    @Body() body: dto.RegistrationConfirmDto,
    @ClientAddress() address: string,
  ): Promise<dto.RegisteredResponseDto> {
    await this.registration.confirm(body, address);
    return { status: 'ok', message: 'Signed up; log in with the login and password', action: 'REGISTERED' };
  }

  /** Public, as above. The same answer whether or not a sign-up was pending for the login. */
  @Route('POST', 'resend-otp', { ...PUBLIC, summary: 'Send a new sign-up code', errors: [CODE_ERRORS.sendLimited] })
  async resendRegistrationCode(@Body() body: dto.ResendDto, @ClientAddress() address: string): Promise<CodeSentResponseDto> {
    await this.registration.resend(body.login, address);
    return CODE_SENT;
  }
}

/**
 * Changing one's login (e-mail or phone), the family's profile screens (issue 43): the new address proves itself with a
 * code, the owner with their password or a second code sent to their current login; the old address is told and may
 * take the login back.
 */
@Routes('profiles/my/contact', 'profiles')
export class ContactController {
  constructor(private readonly registration: RegistrationService) {}

  /**
   * Sends a code to the new login (an e-mail address or a phone number) and, without `password`, one to the current
   * login. A login another user has gets the same answer, and no code to it; the login staff asked for sends nothing
   * more (the user confirms the code sent then); one's own login, while nobody proved it, gets a code that proves it.
   * A wrong `password` counts toward the hold, as at a password change.
   */
  @Route('POST', '', {
    ...OWNER,
    summary: 'Change your login: send a code to the new one (and one to the current one)',
    errors: [CODE_ERRORS.sendLimited, CODE_ERRORS.checksLimited],
  })
  async changeMyContact(
    @Body() body: dto.ContactChangeDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<CodeSentResponseDto> {
    await this.registration.requestContactChange(caller, body, address);
    return CODE_SENT;
  }

  /**
   * With the code (asked without the password: the current login's code, then the new login's, 12 digits): the new login
   * becomes the caller's contact of its kind, verified, and their login when of that kind; every other session ends.
   */
  @Route('POST', 'confirm', {
    ...OWNER,
    summary: 'Confirm the new login with its code',
    errors: [CODE_ERRORS.wrong, LOGIN_TAKEN, CODE_ERRORS.checkLimited],
  })
  async confirmMyContact(
    @Body() body: dto.LoginCodeDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.ContactChangedResponseDto> {
    const profile = await this.registration.confirmContactChange(caller, body.login, body.otp, address);
    return { status: 'ok', message: 'Login changed', profile };
  }

  /**
   * Public: the old address of a changed login takes it back with the code it got (within LOGIN_CHANGE_UNDO_SECONDS) and
   * sets a new password; every session of the user ends. Whoever changed it may hold the sessions and the password.
   */
  @Route('POST', 'restore', {
    ...PUBLIC,
    summary: 'Take a changed login back with the code sent to the old one',
    errors: [
      CODE_ERRORS.wrong,
      CODE_ERRORS.reused,
      ['exception.user.login_taken', 'another user has the old login now'],
      CODE_ERRORS.checkLimited,
    ],
  })
  async restoreMyContact(
    @Body() body: PasswordRecoveryConfirmDto,
    @ClientAddress() address: string,
  ): Promise<PasswordRecoveredResponseDto> {
    await this.registration.restoreContact(body, address);
    return { status: 'ok', message: 'Login restored and password changed; log in with them', action: 'PASSWORD_CHANGED' };
  }
}
