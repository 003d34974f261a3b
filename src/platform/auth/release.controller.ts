import { Body, Caller, ClientAddress, Principal, Route, Routes, UuidParam } from '../http';
import { UpdateUserDto, UserStatusResponseDto } from '../users/dto/users.dto';
import { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';
import * as dto from './dto/authorization.dto';

/** Activating or deactivating a user: not one holding permissions the caller lacks, nor oneself. */
const SET_ACTIVE = {
  access: ['USER_MANAGER'],
  errors: ['exception.user.status_forbidden', 'exception.user.not_found', 'exception.user.self_deactivation'],
} as const;

/** Releasing, activating, deactivating a user and ending their sessions act on credentials and tokens, so they live with authorization. */
@Routes('users')
export class ReleaseController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
  ) {}

  /**
   * Releases a user On Hold, or one whose temporary password expired or was used without a password change: answers a temporary password,
   * shown once, usable once within 24 hours. `unban` is the family's name for it.
   */
  @Route('POST', ':id/release', {
    aliases: { ':id/unban': 'unbanUser' },
    summary: 'Release (unban) a user On Hold with a temporary password',
    access: ['USER_RELEASER'],
    status: 200,
    errors: [
      'exception.user.release_forbidden',
      'exception.user.not_found',
      ['exception.user.not_on_hold', 'neither On Hold nor left with a spent temporary password'],
    ],
  })
  releaseUser(@UuidParam('id') id: string, @Caller() caller: Principal, @ClientAddress() address: string): Promise<dto.ReleaseResponseDto> {
    return this.auth.release({ id }, caller, address);
  }

  /**
   * Activates (`{"active": true}`) or deactivates a user: a deactivated one keeps money, memberships and history, cannot log in, and their
   * sessions end at once. The state they already have changes nothing (`action: UNCHANGED`).
   */
  @Route('PATCH', ':id', { ...SET_ACTIVE, summary: 'Activate or deactivate a user' })
  async updateUserActive(
    @UuidParam('id') id: string,
    @Body() body: UpdateUserDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<UserStatusResponseDto> {
    const changed = await this.auth.setActive(id, body.active, caller, address);
    return {
      status: 'ok',
      message: changed ? (body.active ? 'User activated' : 'User deactivated') : 'Nothing changed',
      action: changed ? (body.active ? 'USER_ACTIVATED' : 'USER_DEACTIVATED') : 'UNCHANGED',
      user: await this.users.get(id),
    };
  }

  /** Deactivates as `PATCH` `{"active": false}` does: users are never erased, all having money or history; `{"active": true}` undoes it. */
  @Route('DELETE', ':id', { ...SET_ACTIVE, summary: 'Delete a user: deactivates them, never erases' })
  async deleteUser(
    @UuidParam('id') id: string,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<UserStatusResponseDto> {
    const changed = await this.auth.setActive(id, false, caller, address, 'deleted');
    return {
      status: 'ok',
      message: changed ? 'User deactivated: users are never erased' : 'Nothing changed: the user was already deactivated',
      action: changed ? 'USER_DEACTIVATED' : 'UNCHANGED',
      user: await this.users.get(id),
    };
  }

  /** Ends every live session (token) of a user, e.g. of a lost device or a leaving employee. */
  @Route('DELETE', ':id/sessions', {
    summary: "End all of a user's sessions",
    access: ['USER_SESSION_REVOKER'],
    errors: ['exception.user.sessions_forbidden', 'exception.user.not_found'],
  })
  async endUserSessions(
    @UuidParam('id') id: string,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.SessionsEndedResponseDto> {
    const endedSessions = await this.auth.endSessionsOf(id, caller, address);
    return { status: 'ok', message: 'Sessions ended', action: 'SESSIONS_ENDED', endedSessions };
  }
}
