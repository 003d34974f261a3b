import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { clientAddress } from '../common/http';
import { UuidParam } from '../common/validators';
import { AuthService } from './auth.service';
import { ReleaseResponseDto } from './dto/authorization.dto';

/** Releasing a user changes their credentials and ends their sessions, so it lives with authorization. */
@ApiTags('users')
@Controller('users')
export class ReleaseController {
  constructor(private readonly auth: AuthService) {}

  /** Releases a user On Hold: answers a temporary password, shown once, valid 24 hours, usable once. */
  @Post(':id/release')
  @HttpCode(200)
  @RequirePermissions('USER_RELEASER')
  @ApiOperation({ summary: 'Release a user On Hold with a temporary password' })
  @ApiOkResponse({ type: ReleaseResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.user.not_on_hold', type: ErrorResponseDto })
  release(@UuidParam('id') id: string, @CurrentPrincipal() actor: Principal, @Req() request: ApiRequest): Promise<ReleaseResponseDto> {
    return this.auth.release(id, actor, clientAddress(request));
  }
}
