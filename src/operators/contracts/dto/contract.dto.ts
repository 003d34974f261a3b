import { ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { AsList, UuidList } from '../../../platform/common/validators';
import { ORGANIZATION_TYPES, OrganizationType, PERSON_TYPES, PersonType } from '../../../platform/organizations/organization.types';
import {
  ApiDateTime,
  ApiEnum,
  ApiInteger,
  ApiOptionalUuid,
  ApiTextOrNull,
  ApiUuid,
  Description,
  Name,
  Nested,
  OptionalDateTime,
  OptionalFlag,
} from '../../../platform/common/dto-fields';

export class CreateContractDto {
  @Name(200, 'Merchant gold 2026')
  name: string;

  @Description(500)
  description?: string;

  /** The type of organization the contract serves; fixed once created. */
  @ApiEnum(ORGANIZATION_TYPES, 'merchant')
  @IsIn(ORGANIZATION_TYPES)
  organizationType: OrganizationType;

  /** Default `base`. */
  @ApiPropertyOptional({ enum: PERSON_TYPES, default: 'base' })
  @IsOptional()
  @IsIn(PERSON_TYPES)
  personType?: PersonType;

  /** An inactive contract cannot be assigned; organizations that hold it keep it and its commissions. Default true. */
  @OptionalFlag(true)
  active?: boolean;

  /**
   * A global contract may be assigned to any number of organizations of its type (the defaults
   * are global); a contract that is not global belongs to one organization at most. Fixed once
   * created. Default false.
   */
  @OptionalFlag(false)
  global?: boolean;
}

/** The organization type and `global` are fixed once a contract exists. */
export class UpdateContractDto extends PartialType(PickType(CreateContractDto, ['name', 'description', 'personType', 'active'] as const)) {}

/** A copy serves the same organization type; the rest defaults to the original's, except `global` (default false). */
export class CopyContractDto extends PartialType(
  PickType(CreateContractDto, ['name', 'description', 'personType', 'active', 'global'] as const),
) {
  /** Default false; true gives the copy's commission profiles the limit profiles of the original's. */
  @OptionalFlag(false)
  copyLimits?: boolean;
}

export class ContractDto {
  @ApiUuid()
  id: string;
  name: string;
  @ApiTextOrNull()
  description: string | null;
  @ApiEnum(ORGANIZATION_TYPES)
  organizationType: string;
  @ApiEnum(PERSON_TYPES)
  personType: string;
  active: boolean;
  global: boolean;
  /** The contract every new organization of its type gets (one per type, seeded on the first start). */
  default: boolean;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

export class ContractResponseDto {
  status: 'ok';
  message: string;
  contract: ContractDto;
}

export class ContractCopyResponseDto extends ContractResponseDto {
  /** How many commission profiles (with their rules and conditions) were copied. */
  @ApiInteger()
  copiedProfiles: number;
  /** With `copyLimits: true`: how many limit profiles were copied. */
  @ApiPropertyOptional({ type: 'integer' })
  copiedLimits?: number;
}

/** Organization types of the family that finapi has no organizations of: a filter accepts them, they match nothing. */
export const FAMILY_ONLY_ORGANIZATION_TYPES = ['gate_provider', 'payroll', 'exchanger'] as const;
const CONTRACT_TYPES = [...ORGANIZATION_TYPES, ...FAMILY_ONLY_ORGANIZATION_TYPES];

/** The family's spelling of a person type, where it differs (its clients send `standart`). */
export const FAMILY_PERSON_TYPES: Record<string, PersonType> = { standart: 'standard' };
/**
 * What `personTypes` takes: a person type (the family's spelling too) or an organization type — the family's
 * user-profile screen sends the profile's type, which is its organization's type: it matches every contract for that
 * organization type, whatever its person type.
 */
const PERSON_TYPE_FILTERS = [...PERSON_TYPES, ...Object.keys(FAMILY_PERSON_TYPES), ...CONTRACT_TYPES];

export class ContractFilterDto {
  @UuidList()
  ids?: string[];

  /** One contract, by id (the family's filter). */
  @ApiOptionalUuid()
  @IsOptional()
  @IsUUID()
  id?: string;

  @ApiPropertyOptional({ enum: ORGANIZATION_TYPES, isArray: true })
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(10)
  @IsIn(ORGANIZATION_TYPES, { each: true })
  organizationTypes?: string[];

  /** The family's name of `organizationTypes`; its types finapi has no organizations of (gate_provider, payroll, exchanger) match nothing. */
  @ApiPropertyOptional({ enum: CONTRACT_TYPES, isArray: true })
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(10)
  @IsIn(CONTRACT_TYPES, { each: true })
  types?: string[];

  /** Person types (`standart` is the family's `standard`); an organization type here matches every person type of it. */
  @ApiPropertyOptional({ enum: PERSON_TYPE_FILTERS, isArray: true })
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(10)
  @IsIn(PERSON_TYPE_FILTERS, { each: true })
  personTypes?: string[];

  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @IsOptional()
  @IsBoolean()
  global?: boolean;

  /** Part of the name, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  /** Part of the description, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  /** Created at or after (ISO 8601). */
  @OptionalDateTime()
  dateFrom?: string;

  /** Created before (ISO 8601). */
  @OptionalDateTime()
  dateTo?: string;
}

/** Sort keys in the order given (the first decides), then id. */
export class ContractSortDto {
  @SortOrder()
  name?: 'asc' | 'desc';

  @SortOrder()
  createdAt?: 'asc' | 'desc';

  @SortOrder()
  id?: 'asc' | 'desc';

  @SortOrder()
  organizationType?: 'asc' | 'desc';

  @SortOrder()
  personType?: 'asc' | 'desc';

  @SortOrder()
  description?: 'asc' | 'desc';

  @SortOrder()
  active?: 'asc' | 'desc';

  @SortOrder()
  global?: 'asc' | 'desc';
}

export class ContractViewDto extends PageRequestDto {
  @Nested(() => ContractFilterDto, 'optional')
  filter?: ContractFilterDto;

  /** Default: name ascending; unknown fields are a 400 naming them. */
  @Nested(() => ContractSortDto, 'optional')
  sort?: ContractSortDto;
}

export class ContractPageDto extends PageDto {
  records: ContractDto[];
}

export class AssignContractDto {
  /** A contract for the organization's type; active; global, or held by no other organization. */
  @ApiUuid()
  @IsUUID()
  contractId: string;
}

/** `PATCH /contracts`, the family's way to move an organization to another contract. */
export class ChangeOrganizationContractDto extends AssignContractDto {
  @ApiUuid()
  @IsUUID()
  organizationId: string;
}

export class OrganizationContractDto {
  status: 'ok';
  message: string;
  @ApiUuid()
  organizationId: string;
  contract: ContractDto;
}
