import { ApiProperty } from '@nestjs/swagger';
import { IDENTIFICATION_STATUSES, ORGANIZATION_TYPES, PERSON_TYPES } from '../organization.types';

export class ContractInfoDto {
  id: string;
  @ApiProperty({ enum: PERSON_TYPES })
  personType: string;
}

/** An organization as a login and a profile show it. */
export class OrganizationRefDto {
  id: string;
  @ApiProperty({ enum: ORGANIZATION_TYPES })
  type: string;
  name: string;
  @ApiProperty({ enum: IDENTIFICATION_STATUSES })
  identificationStatus: string;
  contract_info: ContractInfoDto;
}
