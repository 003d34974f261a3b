import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { Public } from '../access/access.decorators';
import { ApiRequest } from '../access/principal';
import { clientAddress } from '../common/http';
import { CODE_CHECK_LIMITED, CODE_RATE_LIMITED, WRONG_CODE_ANSWER } from './auth.controller';
import { AuthService } from './auth.service';
import { CodeSentResponseDto, LoginDto, PasswordRecoveredResponseDto, PasswordRecoveryConfirmDto } from './dto/authorization.dto';

/** Recovering a forgotten password with a code sent to the login (the family's `entrance` screens). */
@ApiTags('authorization')
@Controller('password/recovery')
export class PasswordRecoveryController {
  constructor(private readonly auth: AuthService) {}

  /** Public: whoever forgot their password has no token. The same answer for an unknown login (nothing is sent then). */
  @Post()
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Send a password recovery code to the login', operationId: 'recoverPassword' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiTooManyRequestsResponse(CODE_RATE_LIMITED)
  recover(@Body() dto: LoginDto, @Req() request: ApiRequest): Promise<CodeSentResponseDto> {
    return this.auth.recoverPassword(dto.login, clientAddress(request));
  }

  /**
   * Public, as above: the code stands for the login. Revokes every token of the user; they log in with the new
   * password. A user On Hold or deactivated is never recovered: their codes were burnt by the hold or the
   * deactivation, and the answer is a wrong code's (only an administrator releases or activates them).
   */
  @Post('confirm')
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Set a new password with the recovery code', operationId: 'confirmPasswordRecovery' })
  @ApiOkResponse({ type: PasswordRecoveredResponseDto })
  @ApiBadRequestResponse({
    ...WRONG_CODE_ANSWER,
    description: `${WRONG_CODE_ANSWER.description}, or newUserPassword unfit; exception.password.reused: one of the last 5 passwords (the code stays usable)`,
  })
  @ApiTooManyRequestsResponse(CODE_CHECK_LIMITED)
  async confirm(@Body() dto: PasswordRecoveryConfirmDto, @Req() request: ApiRequest): Promise<PasswordRecoveredResponseDto> {
    await this.auth.confirmRecovery(dto, clientAddress(request));
    return { status: 'ok', message: 'Password changed; log in with it', action: 'PASSWORD_CHANGED' };
  }
}
