import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { Public, RequirePermissions } from '../../platform/access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../../platform/access/principal';
import { CODE_CHECK_LIMITED, CODE_RATE_LIMITED, WRONG_CODE_ANSWER } from '../../platform/auth/auth.controller';
import { CodeSentResponseDto, PasswordRecoveredResponseDto, PasswordRecoveryConfirmDto } from '../../platform/auth/dto/authorization.dto';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { clientAddress } from '../../platform/common/http';
import {
  ContactChangeDto,
  ContactChangedResponseDto,
  LoginCodeDto,
  RegisteredResponseDto,
  RegistrationConfirmDto,
  RegistrationDto,
  ResendDto,
} from './dto/registration.dto';
import { RegistrationService } from './registration.service';

const CODE_SENT: CodeSentResponseDto = { status: 'ok', message: 'If the login may have a code, one was sent to it', action: 'OTP_SENT' };
const LOGIN_TAKEN = { description: 'exception.user.login_taken: the login was taken meanwhile', type: ErrorResponseDto };

/** Signing up yourself (the family's `entrance` screens): a code to the login, then the password with the code. */
@ApiTags('registration')
@Controller('registration')
export class RegistrationController {
  constructor(private readonly registration: RegistrationService) {}

  /** Public: whoever signs up has no account yet. An existing login gets the same answer (nothing is sent to it). */
  @Post()
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Sign up: send a code to the login', operationId: 'register' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiBadRequestResponse({
    description: 'exception.validation: the login is no e-mail address nor phone number, or an unknown role',
    type: ErrorResponseDto,
  })
  @ApiForbiddenResponse({
    description: 'exception.registration.disabled: signing up is closed for this role (SELF_REGISTRATION_*), and always for staff roles',
    type: ErrorResponseDto,
  })
  @ApiTooManyRequestsResponse(CODE_RATE_LIMITED)
  async register(@Body() dto: RegistrationDto, @Req() request: ApiRequest): Promise<CodeSentResponseDto> {
    await this.registration.register(dto, clientAddress(request));
    return CODE_SENT;
  }

  /** Public, as above; the code stands for the login. */
  @Post('confirm')
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Finish signing up: the code and a password', operationId: 'confirmRegistration' })
  @ApiOkResponse({ type: RegisteredResponseDto })
  @ApiBadRequestResponse({ ...WRONG_CODE_ANSWER, description: `${WRONG_CODE_ANSWER.description}, or the password is unfit` })
  @ApiForbiddenResponse({
    description: 'exception.registration.disabled: signing up was closed for the role since',
    type: ErrorResponseDto,
  })
  @ApiConflictResponse(LOGIN_TAKEN)
  @ApiTooManyRequestsResponse(CODE_CHECK_LIMITED)
  async confirm(@Body() dto: RegistrationConfirmDto, @Req() request: ApiRequest): Promise<RegisteredResponseDto> {
    await this.registration.confirm(dto, clientAddress(request));
    return { status: 'ok', message: 'Signed up; log in with the login and password', action: 'REGISTERED' };
  }

  /** Public, as above. The same answer whether or not a sign-up was pending for the login. */
  @Post('resend-otp')
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Send a new sign-up code', operationId: 'resendRegistrationCode' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiTooManyRequestsResponse(CODE_RATE_LIMITED)
  async resend(@Body() dto: ResendDto, @Req() request: ApiRequest): Promise<CodeSentResponseDto> {
    await this.registration.resend(dto.login, clientAddress(request));
    return CODE_SENT;
  }
}

/**
 * Changing one's login (e-mail or phone), the family's profile screens (issue 43): the new address proves itself with a
 * code, the owner with their password or a second code sent to their current login; the old address is told and may
 * take the login back.
 */
@ApiTags('profiles')
@Controller('profiles/my/contact')
export class ContactController {
  constructor(private readonly registration: RegistrationService) {}

  /**
   * Sends a code to the new login (an e-mail address or a phone number) and, without `password`, one to the current
   * login. A login another user has gets the same answer, and no code to it; the login staff asked for sends nothing
   * more (the user confirms the code sent then); one's own login, while nobody proved it, gets a code that proves it.
   */
  @Post()
  @HttpCode(200)
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: 'Change your login: send a code to the new one (and one to the current one)', operationId: 'changeMyContact' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiBadRequestResponse({
    description:
      'exception.validation: no e-mail address nor phone number, already your login (proven), a wrong `password` (counted toward the hold, as at a password change), or no `password` while your login is no address a code can reach',
    type: ErrorResponseDto,
  })
  @ApiTooManyRequestsResponse({
    description: `${CODE_RATE_LIMITED.description}; or too many failed password checks from this address this minute`,
    type: ErrorResponseDto,
  })
  async change(
    @Body() dto: ContactChangeDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: ApiRequest,
  ): Promise<CodeSentResponseDto> {
    await this.registration.requestContactChange(principal, dto, clientAddress(request));
    return CODE_SENT;
  }

  /**
   * With the code (asked without the password: the current login's code, then the new login's, 12 digits): the new login
   * becomes the caller's contact of its kind, verified, and their login when of that kind; every other session ends.
   */
  @Post('confirm')
  @HttpCode(200)
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: 'Confirm the new login with its code', operationId: 'confirmMyContact' })
  @ApiOkResponse({ type: ContactChangedResponseDto })
  @ApiBadRequestResponse({
    ...WRONG_CODE_ANSWER,
    description: `${WRONG_CODE_ANSWER.description}; exception.validation on \`otp\`: the change needs the code sent to your current login too`,
  })
  @ApiConflictResponse(LOGIN_TAKEN)
  @ApiTooManyRequestsResponse(CODE_CHECK_LIMITED)
  async confirm(
    @Body() dto: LoginCodeDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: ApiRequest,
  ): Promise<ContactChangedResponseDto> {
    const profile = await this.registration.confirmContactChange(principal, dto.login, dto.otp, clientAddress(request));
    return { status: 'ok', message: 'Login changed', profile };
  }

  /**
   * Public: the old address of a changed login takes it back with the code it got (within LOGIN_CHANGE_UNDO_SECONDS) and
   * sets a new password; every session of the user ends. Whoever changed it may hold the sessions and the password.
   */
  @Post('restore')
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Take a changed login back with the code sent to the old one', operationId: 'restoreMyContact' })
  @ApiOkResponse({ type: PasswordRecoveredResponseDto })
  @ApiBadRequestResponse({
    ...WRONG_CODE_ANSWER,
    description: `${WRONG_CODE_ANSWER.description}, or newUserPassword unfit; exception.password.reused: one of the last 5 passwords (the code stays usable)`,
  })
  @ApiConflictResponse({ description: 'exception.user.login_taken: another user has the old login now', type: ErrorResponseDto })
  @ApiTooManyRequestsResponse(CODE_CHECK_LIMITED)
  async restore(@Body() dto: PasswordRecoveryConfirmDto, @Req() request: ApiRequest): Promise<PasswordRecoveredResponseDto> {
    await this.registration.restoreContact(dto, clientAddress(request));
    return { status: 'ok', message: 'Login restored and password changed; log in with them', action: 'PASSWORD_CHANGED' };
  }
}
