import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, IsUUID, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { StaffCoinDto } from '../../../money-movement/coins/dto/coin.dto';
import { FULL_NAME_MAX, OperationTextDto } from '../../../platform/common/operation-text.dto';
import { NameSortDto, PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { AsList, Serial } from '../../../platform/common/validators';
import { NamedContractInfoDto, OrganizationFilterDto } from '../../../platform/organizations/dto/organization.dto';
import { IDENTIFICATION_STATUSES, ORGANIZATION_TYPES } from '../../../platform/organizations/organization.types';
import { Amount, ApiDateTime, ApiEnum, ApiOptionalEnum, ApiOptionalUuid, ApiUuid, Nested } from '../../../platform/common/dto-fields';

/** The types `POST /organizations` lists: the organizations' own, and the gate providers as `gate_provider`. */
export const PARTY_TYPES = [...ORGANIZATION_TYPES.filter((t) => t !== 'system'), 'gate_provider'] as const;

/** Money moved by a system operation: the coin of a cash desk or gate provider, an amount, who handled it. */
export class SystemOperationDto extends OperationTextDto {
  /** The cash desk's cash coin (collects, inputs, investments) or a gate provider's settlement coin (gate investments). */
  @Serial()
  serial: string;

  /** A positive decimal with no more decimals than the coin's currency allows (never 0). */
  @Amount('500.00')
  amount: string | number;

  /** Who handed over or took the cash (or ordered the investment), 1 to 255 characters. */
  @ApiProperty({ maxLength: FULL_NAME_MAX, example: 'Grace Hopper' })
  @IsString()
  @MinLength(1)
  @MaxLength(FULL_NAME_MAX)
  fullName: string;
}

/** A kind of organization as the family's client sends it in a filter; only its `code` selects. */
export class OrganizationTypeRefDto {
  @ApiOptionalEnum(PARTY_TYPES)
  @IsOptional()
  @IsIn(PARTY_TYPES)
  code?: string;
}

export class SystemOrganizationFilterDto extends PickType(OrganizationFilterDto, ['identificationStatuses'] as const) {
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(10)
  @IsIn(PARTY_TYPES, { each: true })
  @ApiPropertyOptional({ type: [String], enum: PARTY_TYPES })
  types?: string[];

  /** The same as `types`, in the shape of the family's organization types (their `code`). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => OrganizationTypeRefDto)
  @ApiPropertyOptional({ type: [OrganizationTypeRefDto] })
  organizationTypes?: OrganizationTypeRefDto[];

  /** Only those serving this issuer: organizations holding a coin of it, gate providers selling in its currency. */
  @IsOptional()
  @IsUUID()
  @ApiOptionalUuid()
  emitentId?: string;

  /** Names containing this text (case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

export class SystemOrganizationViewDto extends PageRequestDto {
  @Nested(() => SystemOrganizationFilterDto, 'optional')
  filter?: SystemOrganizationFilterDto;

  /** By name (the default, ascending) or by `createdAt`. */
  @Nested(() => NameSortDto, 'optional')
  sort?: NameSortDto;
}

/** An organization, or a gate provider (type `gate_provider`, no contract), as the system operations screen lists it. */
export class SystemOrganizationRecordDto {
  @ApiUuid()
  id: string;
  @ApiEnum(PARTY_TYPES)
  type: string;
  name: string;
  @ApiEnum(IDENTIFICATION_STATUSES)
  identificationStatus: string;
  /** `active`, or `blocked` for a gate provider switched off. */
  @ApiEnum(['active', 'blocked'])
  status: string;
  @ApiProperty({ type: NamedContractInfoDto, nullable: true })
  contract_info: NamedContractInfoDto | null;
  @ApiDateTime()
  createdAt: string;
}

export class SystemOrganizationPageDto extends PageDto {
  records: SystemOrganizationRecordDto[];
}

/** The coins a system operation may name for a cash desk or a gate provider. */
export class ProviderCoinListDto {
  status: 'ok';
  message: string;
  coins: StaffCoinDto[];
}
