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

  /** An existing login gets the same answer, and nothing is sent to it. */
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

  /** The code stands for the login. */
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

  /** The same answer whether or not a sign-up was pending for the login. */
  @Route('POST', 'resend-otp', { ...PUBLIC, summary: 'Send a new sign-up code', errors: [CODE_ERRORS.sendLimited] })
  async resendRegistrationCode(@Body() body: dto.ResendDto, @ClientAddress() address: string): Promise<CodeSentResponseDto> {
    await this.registration.resend(body.login, address);
    return CODE_SENT;
  }
}

/** Changing one's login: the new address proves itself with a code, the owner with their password or a code to the current login. */
@Routes('profiles/my/contact', 'profiles')
export class ContactController {
  constructor(private readonly registration: RegistrationService) {}

  /**
   * Sends a code to the new login and, without `password`, one to the current login. Another user's login gets the same answer and no code;
   * one staff asked for sends nothing more; one's own unproven login gets a code that proves it. A wrong `password` counts toward the hold.
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

  /** The new login becomes the caller's verified contact of its kind, and their login when of that kind; every other session ends. */
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

  /** The old address takes the login back with its code (within LOGIN_CHANGE_UNDO_SECONDS) and sets a new password; every session ends. */
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
