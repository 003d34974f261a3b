import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageDto, PageRequestDto } from '../../common/paging.dto';
import { AsList } from '../../common/validators';
import { IDENTIFICATION_STATUSES, ORGANIZATION_TYPES, PERSON_TYPES } from '../organization.types';
import { ApiDateTime, ApiEnum, ApiTextOrNull, ApiUuid, Nested } from '../../common/dto-fields';

export class ContractInfoDto {
  id: string;
  @ApiEnum(PERSON_TYPES)
  personType: string;
}

/** The contract an organization follows, with the contract's name, as the staff screens' lists show it. */
export class NamedContractInfoDto extends ContractInfoDto {
  name: string;
}

/** An organization as a login and a profile show it. */
export class OrganizationRefDto {
  id: string;
  @ApiEnum(ORGANIZATION_TYPES)
  type: string;
  name: string;
  @ApiEnum(IDENTIFICATION_STATUSES)
  identificationStatus: string;
  contract_info: ContractInfoDto;
}

/** An organization as staff (or its members) read it. */
export class OrganizationRecordDto {
  @ApiUuid()
  id: string;
  @ApiEnum(ORGANIZATION_TYPES)
  type: string;
  name: string;
  @ApiEnum(IDENTIFICATION_STATUSES)
  identificationStatus: string;
  contract_info: ContractInfoDto;
  @ApiProperty({ type: String, nullable: true, format: 'email' })
  email: string | null;
  @ApiTextOrNull()
  phoneNumber: string | null;
  @ApiDateTime()
  createdAt: string;
}

export class OrganizationResponseDto {
  status: 'ok';
  message: string;
  organization: OrganizationRecordDto;
}

export class OrganizationFilterDto {
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(5)
  @IsIn(ORGANIZATION_TYPES, { each: true })
  @ApiPropertyOptional({ type: [String], enum: ORGANIZATION_TYPES })
  types?: string[];

  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(6)
  @IsIn(IDENTIFICATION_STATUSES, { each: true })
  @ApiPropertyOptional({ type: [String], enum: IDENTIFICATION_STATUSES })
  identificationStatuses?: string[];

  /** Organizations whose name contains this text (case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

export class OrganizationViewDto extends PageRequestDto {
  @Nested(() => OrganizationFilterDto, 'optional')
  filter?: OrganizationFilterDto;
}

export class OrganizationPageDto extends PageDto {
  records: OrganizationRecordDto[];
}
