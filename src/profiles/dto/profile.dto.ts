import { ApiProperty } from '@nestjs/swagger';
import { ROLES } from '../../access/permissions';
import { OrganizationRefDto } from '../../organizations/dto/organization.dto';

export class ProfileUserDto {
  id: string;
  login: string;
  name: string;
  @ApiProperty({ enum: ['active', 'on_hold'] })
  status: string;
}

export class ProfileDto {
  status: 'ok';
  message: string;
  user: ProfileUserDto;
  @ApiProperty({ enum: ROLES })
  role: string;
  organization: OrganizationRefDto;
  permissions: string[];
}
