import { Body, Controller, Patch, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { clientAddress } from '../common/http';
import { AuthService } from './auth.service';
import { ChangeMyPasswordDto, PasswordChangedResponseDto } from './dto/authorization.dto';

/** The family's profile pages change the password here: the rules of `POST /authorization/password`, the session kept. */
@ApiTags('profiles')
@Controller('profiles/my/password')
export class ProfilePasswordController {
  constructor(private readonly auth: AuthService) {}

  /** Changes the caller's password; the presented token stays valid and every other session of the user ends. */
  @Patch()
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: "Change the caller's password from the profile page", operationId: 'updateMyPassword' })
  @ApiOkResponse({ type: PasswordChangedResponseDto })
  @ApiBadRequestResponse({
    description:
      'exception.validation: a wrong currentUserPassword, an unfit newUserPassword or a confirmPassword that differs; exception.password.reused: newUserPassword is one of your last 5 passwords',
    type: ErrorResponseDto,
  })
  @ApiTooManyRequestsResponse({ description: 'Too many failed validations from this address this minute', type: ErrorResponseDto })
  async change(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: ChangeMyPasswordDto,
    @Req() request: ApiRequest,
  ): Promise<PasswordChangedResponseDto> {
    await this.auth.changeMyPassword(principal, dto, clientAddress(request));
    return { status: 'ok', message: 'Password changed' };
  }
}
