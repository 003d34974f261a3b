import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { CurrentPrincipal, Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ApiRequest, clientAddress } from '../common/http';
import { PageRequestDto, UuidParam } from '../common/validators';
import { CreateUserDto, ReleaseResponseDto, UserActionPageDto, UserPageDto, UserResponseDto, UserViewDto } from './dto/users.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /** Creates a user with one membership. */
  @Post()
  @RequirePermissions('USER_MANAGER')
  @ApiOperation({ summary: 'Create a user' })
  @ApiCreatedResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ description: 'organizationId does not exist', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.user.login_taken', type: ErrorResponseDto })
  async create(@Body() dto: CreateUserDto, @CurrentPrincipal() actor: Principal, @Req() request: ApiRequest): Promise<UserResponseDto> {
    return { status: 'ok', message: 'User created', user: await this.users.create(dto, actor, clientAddress(request)) };
  }

  /** Searches users by status, role and login. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('USER_VIEWER')
  @ApiOperation({ summary: 'Search users' })
  @ApiOkResponse({ type: UserPageDto })
  view(@Body() dto: UserViewDto): Promise<UserPageDto> {
    return this.users.view(dto);
  }

  @Get(':id')
  @RequirePermissions('USER_VIEWER')
  @ApiOperation({ summary: 'Get a user' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@UuidParam('id') id: string): Promise<UserResponseDto> {
    return { status: 'ok', message: 'OK', user: await this.users.get(id) };
  }

  /** Releases a user On Hold: answers a temporary password, shown once, valid 24 hours, usable once. */
  @Post(':id/release')
  @HttpCode(200)
  @RequirePermissions('USER_RELEASER')
  @ApiOperation({ summary: 'Release a user On Hold with a temporary password' })
  @ApiOkResponse({ type: ReleaseResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.user.not_on_hold', type: ErrorResponseDto })
  release(@UuidParam('id') id: string, @CurrentPrincipal() actor: Principal, @Req() request: ApiRequest): Promise<ReleaseResponseDto> {
    return this.users.release(id, actor, clientAddress(request));
  }

  /** The user's recorded actions, newest first: logins, failures, holds, releases, password changes. */
  @Post(':id/actions/view')
  @HttpCode(200)
  @RequirePermissions('USER_ACTION_VIEWER')
  @ApiOperation({ summary: "List a user's recorded actions" })
  @ApiOkResponse({ type: UserActionPageDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  actions(@UuidParam('id') id: string, @Body() page: PageRequestDto): Promise<UserActionPageDto> {
    return this.users.actions(id, page);
  }
}
