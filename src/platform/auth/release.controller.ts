import { Controller, Delete, HttpCode, Post, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { clientAddress } from '../common/http';
import { UuidParam } from '../common/validators';
import { AuthService } from './auth.service';
import { ReleaseResponseDto, SessionsEndedResponseDto } from './dto/authorization.dto';

/** Releasing a user and ending their sessions act on their credentials and tokens, so they live with authorization. */
@ApiTags('users')
@Controller('users')
export class ReleaseController {
  constructor(private readonly auth: AuthService) {}

  /**
   * Releases a user On Hold, or one whose temporary password expired or was used without a password
   * change: answers a temporary password, shown once, valid 24 hours, usable once. Only a releaser
   * holding every permission of the user's roles may release them.
   */
  @Post(':id/release')
  @HttpCode(200)
  @RequirePermissions('USER_RELEASER')
  @ApiOperation({ summary: 'Release a user On Hold with a temporary password', operationId: 'releaseUser' })
  @ApiOkResponse({ type: ReleaseResponseDto })
  @ApiForbiddenResponse({
    description: 'exception.access.permission_missing, or exception.user.release_forbidden: the user holds permissions the releaser lacks',
    type: ErrorResponseDto,
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({
    description: 'exception.user.not_on_hold: neither On Hold nor left with a spent temporary password',
    type: ErrorResponseDto,
  })
  release(@UuidParam('id') id: string, @CurrentPrincipal() actor: Principal, @Req() request: ApiRequest): Promise<ReleaseResponseDto> {
    return this.auth.release({ id }, actor, clientAddress(request));
  }

  /** Ends every live session (token) of a user, e.g. of a lost device or a leaving employee. */
  @Delete(':id/sessions')
  @RequirePermissions('USER_SESSION_REVOKER')
  @ApiOperation({ summary: "End all of a user's sessions", operationId: 'endUserSessions' })
  @ApiOkResponse({ type: SessionsEndedResponseDto })
  @ApiForbiddenResponse({
    description: 'exception.access.permission_missing, or exception.user.sessions_forbidden: the user holds permissions the caller lacks',
    type: ErrorResponseDto,
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async endSessions(
    @UuidParam('id') id: string,
    @CurrentPrincipal() actor: Principal,
    @Req() request: ApiRequest,
  ): Promise<SessionsEndedResponseDto> {
    const endedSessions = await this.auth.endSessionsOf(id, actor, clientAddress(request));
    return { status: 'ok', message: 'Sessions ended', action: 'SESSIONS_ENDED', endedSessions };
  }
}
