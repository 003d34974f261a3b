import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { clientAddress } from '../common/http';
import { PageRequestDto } from '../common/paging.dto';
import { UuidParam } from '../common/validators';
import { UserActionPageDto } from '../user-actions/dto/user-action.dto';
import { CreatedUserDto, CreateUserDto, UserPageDto, UserResponseDto, UserViewDto } from './dto/users.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /** Creates a user with one membership. */
  @Post()
  @RequirePermissions('USER_MANAGER')
  @ApiOperation({ summary: 'Create a user', operationId: 'createUser' })
  @ApiCreatedResponse({ type: CreatedUserDto })
  @ApiNotFoundResponse({ description: 'organizationId does not exist', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.user.login_taken', type: ErrorResponseDto })
  async create(@Body() dto: CreateUserDto, @CurrentPrincipal() actor: Principal, @Req() request: ApiRequest): Promise<CreatedUserDto> {
    return { status: 'ok', message: 'User created', ...(await this.users.create(dto, actor, clientAddress(request))) };
  }

  /** Searches users by status, role and login. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('USER_VIEWER')
  @ApiOperation({ summary: 'Search users', operationId: 'viewUsers' })
  @ApiOkResponse({ type: UserPageDto })
  view(@Body() dto: UserViewDto): Promise<UserPageDto> {
    return this.users.view(dto);
  }

  /**
   * A user with their contact, status (active or On Hold), failed attempts and memberships (organization and role): for
   * staff with USER_VIEWER. An unknown id is a 404.
   */
  @Get(':id')
  @RequirePermissions('USER_VIEWER')
  @ApiOperation({ summary: 'Get a user', operationId: 'getUser' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@UuidParam('id') id: string): Promise<UserResponseDto> {
    return { status: 'ok', message: 'OK', user: await this.users.get(id) };
  }

  /** The user's recorded actions, newest first: logins, failures, holds, releases, password changes. */
  @Post(':id/actions/view')
  @HttpCode(200)
  @RequirePermissions('USER_ACTION_VIEWER')
  @ApiOperation({ summary: "List a user's recorded actions", operationId: 'viewUserActions' })
  @ApiOkResponse({ type: UserActionPageDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  actions(@UuidParam('id') id: string, @Body() page: PageRequestDto): Promise<UserActionPageDto> {
    return this.users.actions(id, page);
  }
}
