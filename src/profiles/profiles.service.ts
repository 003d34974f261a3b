import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { contactOf, UsersService } from '../users/users.service';
import type { ProfileDto } from './dto/profile.dto';

@Injectable()
export class ProfilesService {
  constructor(private readonly users: UsersService) {}

  /** What the strategy read with the token, and the person, contact and memberships (one more query). */
  async my(principal: Principal): Promise<ProfileDto> {
    const user = await this.users.withMemberships(principal.userId);
    if (!user) throw new ApiError('exception.authorization.token_invalid');
    const { organization } = principal;
    // Without first and last names, the display name is split at its first space.
    const [first, ...rest] = user.name.split(' ');
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
      profile: {
        type: principal.organizationType,
        status: organization.identificationStatus,
        person: { namePlain: { first: user.first_name ?? first, last: user.last_name ?? (user.first_name ? '' : rest.join(' ')) } },
        contact: contactOf(user),
      },
      memberShips: user.memberships ?? [],
    };
  }
}
