import { Body, Controller, Delete, HttpCode, Patch, Post, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { clientAddress } from '../common/http';
import { UuidParam } from '../common/validators';
import { UpdateUserDto, UserStatusResponseDto } from '../users/dto/users.dto';
import { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';
import { ReleaseResponseDto, SessionsEndedResponseDto } from './dto/authorization.dto';

const STATUS_FORBIDDEN =
  'exception.access.permission_missing, or exception.user.status_forbidden: the user holds permissions the caller lacks';

/**
 * Releasing a user, ending their sessions, deactivating and activating them act on their credentials and tokens, so
 * they live with authorization.
 */
@ApiTags('users')
@Controller('users')
export class ReleaseController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
  ) {}

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

  /** The family's name for a release (the user's page "Unban"): the same act, answering the temporary password to give them. */
  @Post(':id/unban')
  @HttpCode(200)
  @RequirePermissions('USER_RELEASER')
  @ApiOperation({ summary: 'Unban (release) a user On Hold with a temporary password', operationId: 'unbanUser' })
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
  unban(@UuidParam('id') id: string, @CurrentPrincipal() actor: Principal, @Req() request: ApiRequest): Promise<ReleaseResponseDto> {
    return this.auth.release({ id }, actor, clientAddress(request));
  }

  /**
   * Activates (`{"active": true}`) or deactivates (`{"active": false}`) a user. A deactivated user keeps their money,
   * memberships and history, cannot log in, and their sessions end at once. Setting the state the user already has
   * changes nothing (`action: UNCHANGED`).
   */
  @Patch(':id')
  @RequirePermissions('USER_MANAGER')
  @ApiOperation({ summary: 'Activate or deactivate a user', operationId: 'updateUserActive' })
  @ApiOkResponse({ type: UserStatusResponseDto })
  @ApiForbiddenResponse({ description: STATUS_FORBIDDEN, type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.user.self_deactivation: a user may not change their own state', type: ErrorResponseDto })
  async update(
    @UuidParam('id') id: string,
    @Body() dto: UpdateUserDto,
    @CurrentPrincipal() actor: Principal,
    @Req() request: ApiRequest,
  ): Promise<UserStatusResponseDto> {
    const changed = await this.auth.setActive(id, dto.active, actor, clientAddress(request));
    return {
      status: 'ok',
      message: changed ? (dto.active ? 'User activated' : 'User deactivated') : 'Nothing changed',
      action: changed ? (dto.active ? 'USER_ACTIVATED' : 'USER_DEACTIVATED') : 'UNCHANGED',
      user: await this.users.get(id),
    };
  }

  /**
   * "Deletes" a user: users are never erased — every one has money or history (at least their creation in the
   * action log) — so the user is deactivated, as `PATCH /users/{id}` with `{"active": false}` does, and stays
   * listed with `active: false`. `PATCH` with `{"active": true}` undoes it.
   */
  @Delete(':id')
  @RequirePermissions('USER_MANAGER')
  @ApiOperation({ summary: 'Delete a user: deactivates them, never erases', operationId: 'deleteUser' })
  @ApiOkResponse({ type: UserStatusResponseDto })
  @ApiForbiddenResponse({ description: STATUS_FORBIDDEN, type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.user.self_deactivation: a user may not delete themselves', type: ErrorResponseDto })
  async remove(
    @UuidParam('id') id: string,
    @CurrentPrincipal() actor: Principal,
    @Req() request: ApiRequest,
  ): Promise<UserStatusResponseDto> {
    const changed = await this.auth.setActive(id, false, actor, clientAddress(request), 'deleted');
    return {
      status: 'ok',
      message: changed ? 'User deactivated: users are never erased' : 'Nothing changed: the user was already deactivated',
      action: changed ? 'USER_DEACTIVATED' : 'UNCHANGED',
      user: await this.users.get(id),
    };
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
