import { ApiProperty } from '@nestjs/swagger';
import { ROLES } from '../../../platform/access/permissions';
import { IDENTIFICATION_STATUSES, ORGANIZATION_TYPES } from '../../../platform/organizations/organization.types';
import { OrganizationRefDto } from '../../../platform/organizations/dto/organization.dto';
import { ContactDto } from '../../../platform/users/dto/users.dto';

export class ProfileUserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  login: string;
  name: string;
  @ApiProperty({ enum: ['active', 'on_hold'] })
  status: string;
}

export class NamePlainDto {
  first: string;
  last: string;
}

export class PersonDto {
  namePlain: NamePlainDto;
}

/** The person behind the login, as profile pages of this API family read it. */
export class ProfileDataDto {
  /** The type of the membership's organization. */
  @ApiProperty({ enum: ORGANIZATION_TYPES })
  type: string;
  /** The identification status of the membership's organization. */
  @ApiProperty({ enum: IDENTIFICATION_STATUSES })
  status: string;
  person: PersonDto;
  contact: ContactDto;
}

export class MemberShipDto {
  @ApiProperty({ format: 'uuid' })
  organizationId: string;
  @ApiProperty({ enum: ROLES })
  roleName: string;
}

export class ProfileDto {
  status: 'ok';
  message: string;
  user: ProfileUserDto;
  @ApiProperty({ enum: ROLES })
  role: string;
  organization: OrganizationRefDto;
  permissions: string[];
  profile: ProfileDataDto;
  /** Every membership of the user (the token acts as one of them: `organization`). */
  memberShips: MemberShipDto[];
}
