import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { CurrentPrincipal, Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { ProfileDto } from './dto/users.dto';
import { UsersRepository } from './users.repository';

@ApiTags('profiles')
@Controller('profiles')
export class ProfilesController {
  constructor(private readonly users: UsersRepository) {}

  /** The caller: user, the membership's organization and role, and its permissions. */
  @Get('my')
  @RequirePermissions()
  @ApiOperation({ summary: "The caller's profile" })
  @ApiOkResponse({ type: ProfileDto })
  async my(@CurrentPrincipal() principal: Principal): Promise<ProfileDto> {
    const [user, membership] = await Promise.all([this.users.findById(principal.userId), this.users.membership(principal.membershipId)]);
    if (!user || !membership) throw ApiError.unauthorized();
    return {
      status: 'ok',
      message: 'OK',
      user: { id: user.id, login: user.login, name: user.name, status: user.status },
      role: principal.role,
      organization: {
        id: membership.organization_id,
        type: membership.organization_type,
        name: membership.organization_name,
        identificationStatus: membership.identification_status,
        contract_info: { id: membership.contract_id, personType: membership.person_type },
      },
      permissions: [...principal.permissions].sort(),
    };
  }
}
