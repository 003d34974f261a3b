import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { CurrentPrincipal, Principal } from '../access/principal';
import { ProfileDto } from './dto/profile.dto';
import { ProfilesService } from './profiles.service';

@ApiTags('profiles')
@Controller('profiles')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  /** The caller: user, person and contact, the membership's organization and role, its permissions, and every membership. */
  @Get('my')
  @RequirePermissions()
  @ApiOperation({ summary: "The caller's profile", operationId: 'getMyProfile' })
  @ApiOkResponse({ type: ProfileDto })
  my(@CurrentPrincipal() principal: Principal): Promise<ProfileDto> {
    return this.profiles.my(principal);
  }
}
