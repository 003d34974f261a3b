import { Body, Controller, Delete, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { PasswordChangeRoute, Public } from '../access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { clientAddress } from '../common/http';
import { AuthService } from './auth.service';
import {
  AuthorizationRequestDto,
  AuthorizationResponseDto,
  ChangePasswordDto,
  CodeSentResponseDto,
  LoginConfirmDto,
  LoginResendDto,
  LogoutResponseDto,
} from './dto/authorization.dto';

export const WRONG_CODE_ANSWER = {
  description:
    'exception.confirmation_code.not_found: the code is wrong, used, expired, burnt by too many wrong tries, or none was sent (one answer for all); exception.validation: a field is missing',
  type: ErrorResponseDto,
};
export const CODE_RATE_LIMITED = {
  description:
    'exception.rate_limited (Retry-After): this address asked a code of this purpose for this login less than ONE_TIME_CODE_RESEND_SECONDS ago, or ONE_TIME_CODES_PER_HOUR for it this hour; or ONE_TIME_CODES_PER_ADDRESS_PER_HOUR codes this hour for any logins; or the login’s codes are stopped after ONE_TIME_CODE_FAILURES_BEFORE_LOCK wrong codes in a row (the same for a login that does not exist)',
  type: ErrorResponseDto,
};
export const CODE_CHECK_LIMITED = {
  description:
    'exception.rate_limited (Retry-After), before the code is compared: this address presented ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR wrong codes this hour, for any logins; or the login’s codes of this purpose are stopped after ONE_TIME_CODE_FAILURES_BEFORE_LOCK wrong codes in a row, from any address, until ONE_TIME_CODE_LOCK_SECONDS pass or an administrator releases the user',
  type: ErrorResponseDto,
};

@ApiTags('authorization')
@Controller('authorization')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  /** Validates login and password and issues a token per membership (specification 2.1, 2.2). */
  @Post()
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Log in with login and password', operationId: 'login' })
  @ApiOkResponse({
    type: AuthorizationResponseDto,
    description: 'Tokens; or, when LOGIN_CONFIRMATION asks for it, `action: OTP_SENT` and a code sent to the login (no token yet)',
  })
  @ApiUnauthorizedResponse({ description: 'Wrong login or password (same answer for an unknown login)', type: ErrorResponseDto })
  @ApiForbiddenResponse({
    description: 'exception.authorization.user_on_hold: the user is On Hold (the same answer whatever the password)',
    type: ErrorResponseDto,
  })
  @ApiTooManyRequestsResponse({
    description:
      'Too many failed logins from this address this minute; or, when LOGIN_CONFIRMATION asks for a code, a limit of the codes (see POST /authorization/resend-otp)',
    type: ErrorResponseDto,
  })
  login(@Body() dto: AuthorizationRequestDto, @Req() request: ApiRequest): Promise<AuthorizationResponseDto> {
    return this.auth.login(dto.login, dto.password, clientAddress(request));
  }

  /**
   * Public: the second step of a login, whose first step (the password) answered `OTP_SENT` and a `challengeId`
   * without a token. The code counts only with that challenge: its `challengeId`, or (LOGIN_CHALLENGE_BY_ADDRESS, on
   * by default) a request from the address that sent the password, which is how the family's web client confirms
   * (`{login, otp}`). Anything else is refused as a wrong code.
   */
  @Post('confirm')
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Confirm a login with the code sent to it', operationId: 'confirmLogin' })
  @ApiOkResponse({ type: AuthorizationResponseDto })
  @ApiBadRequestResponse({
    ...WRONG_CODE_ANSWER,
    description: `${WRONG_CODE_ANSWER.description}; also a code without its challenge (no or another challengeId, and not from the password step's address)`,
  })
  @ApiForbiddenResponse({ description: 'exception.authorization.user_on_hold: the user was put On Hold meanwhile', type: ErrorResponseDto })
  @ApiTooManyRequestsResponse(CODE_CHECK_LIMITED)
  confirm(@Body() dto: LoginConfirmDto, @Req() request: ApiRequest): Promise<AuthorizationResponseDto> {
    return this.auth.confirmLogin(dto.login, dto.otp, clientAddress(request), dto.challengeId);
  }

  /**
   * Public: the user has no token until the login is confirmed. Sends a new code only for a live challenge — the one
   * named by `challengeId`, or (LOGIN_CHALLENGE_BY_ADDRESS) the newest passed at this address — ending when that
   * challenge ends. The same answer otherwise, and nothing sent: new codes come only from a password step.
   */
  @Post('resend-otp')
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Send a new login code', operationId: 'resendLoginCode' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiTooManyRequestsResponse(CODE_RATE_LIMITED)
  resend(@Body() dto: LoginResendDto, @Req() request: ApiRequest): Promise<CodeSentResponseDto> {
    return this.auth.resendLoginCode(dto.login, clientAddress(request), dto.challengeId);
  }

  /** Revokes the presented token. */
  @Delete()
  @PasswordChangeRoute()
  @ApiOperation({ summary: 'Log out: revoke the presented token', operationId: 'logout' })
  @ApiOkResponse({ type: LogoutResponseDto })
  async logout(@CurrentPrincipal() principal: Principal, @Req() request: ApiRequest): Promise<LogoutResponseDto> {
    await this.auth.logout(principal, clientAddress(request));
    return { status: 'ok', message: 'Token revoked', action: 'TOKEN_REVOKED' };
  }

  /** Changes the caller's password; the only call a temporary-password token may make. Answers new tokens. */
  @Post('password')
  @HttpCode(200)
  @PasswordChangeRoute()
  @ApiOperation({ summary: 'Change the password (required after a release)', operationId: 'changePassword' })
  @ApiOkResponse({ type: AuthorizationResponseDto })
  @ApiBadRequestResponse({
    description:
      'exception.validation: a wrong currentPassword or an unfit newPassword; exception.password.reused: newPassword is one of your last 5 passwords',
    type: ErrorResponseDto,
  })
  @ApiTooManyRequestsResponse({ description: 'Too many failed validations from this address this minute', type: ErrorResponseDto })
  changePassword(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: ChangePasswordDto,
    @Req() request: ApiRequest,
  ): Promise<AuthorizationResponseDto> {
    return this.auth.changePassword(principal, dto, clientAddress(request));
  }
}
