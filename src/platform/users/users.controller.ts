import { Body, Caller, ClientAddress, Principal, Route, Routes, UuidParam } from '../http';
import { PageRequestDto } from '../common/paging.dto';
import { UserActionPageDto } from '../user-actions/dto/user-action.dto';
import * as dto from './dto/users.dto';
import { UsersService } from './users.service';

@Routes('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /** Creates a user with one membership. */
  @Route('POST', '', {
    summary: 'Create a user',
    access: ['USER_MANAGER'],
    errors: [['exception.organization.not_found', 'organizationId does not exist'], 'exception.user.login_taken'],
  })
  async createUser(
    @Body() body: dto.CreateUserDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.CreatedUserDto> {
    return { status: 'ok', message: 'User created', ...(await this.users.create(body, caller, address)) };
  }

  /** Searches users by status, role and login. */
  @Route('POST', 'view', { summary: 'Search users', access: ['USER_VIEWER'], status: 200 })
  viewUsers(@Body() body: dto.UserViewDto): Promise<dto.UserPageDto> {
    return this.users.view(body);
  }

  /** A user with their contact, status (active or On Hold), failed attempts and memberships (organization and role). */
  @Route('GET', ':id', { summary: 'Get a user', access: ['USER_VIEWER'], errors: ['exception.user.not_found'] })
  async getUser(@UuidParam('id') id: string): Promise<dto.UserResponseDto> {
    return { status: 'ok', message: 'OK', user: await this.users.get(id) };
  }

  /** The user's recorded actions, newest first: logins, failures, holds, releases, password changes. */
  @Route('POST', ':id/actions/view', {
    summary: "List a user's recorded actions",
    access: ['USER_ACTION_VIEWER'],
    status: 200,
    errors: ['exception.user.not_found'],
  })
  viewUserActions(@UuidParam('id') id: string, @Body() page: PageRequestDto): Promise<UserActionPageDto> {
    return this.users.actions(id, page);
  }
}
