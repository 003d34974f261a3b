import { Body, Caller, ClientAddress, Principal, Route, Routes } from '../http';
import { AuthService } from './auth.service';
import { CODE_ERRORS } from './code-errors';
import * as dto from './dto/authorization.dto';

const PUBLIC = { access: 'public', status: 200 } as const;

@Routes('authorization')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  /** A token per membership; or, when LOGIN_CONFIRMATION asks for it, no token yet: `action: OTP_SENT`, and a code sent to the login. */
  @Route('POST', '', {
    ...PUBLIC,
    summary: 'Log in with login and password',
    errors: [
      ['exception.authorization.invalid_credentials', 'wrong login or password (same answer for an unknown login)'],
      ['exception.authorization.user_on_hold', 'the user is On Hold (the same answer whatever the password)'],
      ['exception.rate_limited', 'too many failed logins from this address this minute; or a limit of the codes (see resend-otp)'],
    ],
  })
  login(@Body() body: dto.AuthorizationRequestDto, @ClientAddress() address: string): Promise<dto.AuthorizationResponseDto> {
    return this.auth.login(body.login, body.password, address);
  }

  /**
   * The second step of a login that answered `OTP_SENT`: the code counts only with its challenge, named by `challengeId` or
   * (LOGIN_CHALLENGE_BY_ADDRESS, on by default) the address that sent the password, as the family's web client confirms (`{login, otp}`).
   */
  @Route('POST', 'confirm', {
    ...PUBLIC,
    summary: 'Confirm a login with the code sent to it',
    errors: [CODE_ERRORS.wrong, ['exception.authorization.user_on_hold', 'put On Hold meanwhile'], CODE_ERRORS.checkLimited],
  })
  confirmLogin(@Body() body: dto.LoginConfirmDto, @ClientAddress() address: string): Promise<dto.AuthorizationResponseDto> {
    return this.auth.confirmLogin(body.login, body.otp, address, body.challengeId);
  }

  /**
   * A new code only for a live challenge (its `challengeId`, or the newest passed at this address), ending when that challenge ends;
   * otherwise the same answer, and nothing sent.
   */
  @Route('POST', 'resend-otp', { ...PUBLIC, summary: 'Send a new login code', errors: [CODE_ERRORS.sendLimited] })
  resendLoginCode(@Body() body: dto.LoginResendDto, @ClientAddress() address: string): Promise<dto.CodeSentResponseDto> {
    return this.auth.resendLoginCode(body.login, address, body.challengeId);
  }

  /** Revokes the presented token. */
  @Route('DELETE', '', { summary: 'Log out: revoke the presented token', access: 'password-change' })
  async logout(@Caller() caller: Principal, @ClientAddress() address: string): Promise<dto.LogoutResponseDto> {
    await this.auth.logout(caller, address);
    return { status: 'ok', message: 'Token revoked', action: 'TOKEN_REVOKED' };
  }

  /** Changes the caller's password; the only call a temporary-password token may make. Answers new tokens. */
  @Route('POST', 'password', {
    summary: 'Change the password (required after a release)',
    access: 'password-change',
    status: 200,
    errors: [['exception.validation', 'a wrong currentPassword or an unfit newPassword'], CODE_ERRORS.reused, CODE_ERRORS.checksLimited],
  })
  changePassword(
    @Caller() caller: Principal,
    @Body() body: dto.ChangePasswordDto,
    @ClientAddress() address: string,
  ): Promise<dto.AuthorizationResponseDto> {
    return this.auth.changePassword(caller, body, address);
  }
}
