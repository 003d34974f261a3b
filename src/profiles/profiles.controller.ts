import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { CurrentPrincipal, Principal } from '../access/principal';
import { ProfileDto } from './dto/profile.dto';

@ApiTags('profiles')
@Controller('profiles')
export class ProfilesController {
  /** The caller: user, the membership's organization and role, and its permissions. */
  @Get('my')
  @RequirePermissions()
  @ApiOperation({ summary: "The caller's profile" })
  @ApiOkResponse({ type: ProfileDto })
  my(@CurrentPrincipal() principal: Principal): ProfileDto {
    // The strategy read all of it with the token, in one query (AuthRepository.principalRow).
    const { user, organization } = principal;
    return {
      status: 'ok',
      message: 'OK',
      user: { id: principal.userId, login: user.login, name: user.name, status: user.status },
      role: principal.role,
      organization: {
        id: principal.organizationId,
        type: principal.organizationType,
        name: organization.name,
        identificationStatus: organization.identificationStatus,
        contract_info: { id: organization.contractId, personType: organization.personType },
      },
      permissions: [...principal.permissions].sort(),
    };
  }
}
