import { ApiProperty, ApiPropertyOptional, IntersectionType, PartialType, PickType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsUUID, ValidateIf } from 'class-validator';
import { PageDto, PageRequestDto } from '../../common/paging.dto';
import { AsList, UuidList } from '../../common/validators';
import { OPERATION_FLOW_NAMES, OperationFlow } from '../../ledger/operation-types';
import { OperationFlowDto } from './commission-calculation.dto';
import {
  ApiDateTime,
  ApiEnum,
  ApiExample,
  ApiOptionalEnum,
  ApiTextOrNull,
  ApiUuid,
  Description,
  Nested,
  OptionalFlag,
} from '../../common/dto-fields';

/**
 * Which participants of a flow a profile is for (the family's participant specification). Only `no` (every
 * participant): a contract already belongs to the organizations it prices, with its own `personType`, so a profile is
 * not narrowed further — `personType` is refused rather than stored and ignored.
 */
export class ParticipantSpecificationDto {
  @ApiEnum(['no'], 'no')
  @IsIn(['no'], { message: 'must be no: a profile applies to every participant of its contract (personType is not supported)' })
  type: 'no';

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Absent or null with type no' })
  @IsOptional()
  @IsIn([null], { message: 'must be null with type no' })
  value?: null;
}

/** The participant specifications of a profile, as the family's clients send them (`{type: 'no'}` each). */
class ParticipantsDto {
  @ApiPropertyOptional({ type: ParticipantSpecificationDto })
  @Nested(() => ParticipantSpecificationDto, 'optional')
  srcParticipantSpecification?: ParticipantSpecificationDto;

  @ApiPropertyOptional({ type: ParticipantSpecificationDto })
  @Nested(() => ParticipantSpecificationDto, 'optional')
  destParticipantSpecification?: ParticipantSpecificationDto;
}

/** What a profile of either kind takes besides its participants, flow and issuers. */
class ProfileSettingsDto {
  @Description(200)
  name?: string;

  @Description(500)
  description?: string;

  /** An inactive profile charges nothing. Default true. */
  @OptionalFlag(true)
  active?: boolean;
}

export class CreateCommissionProfileDto extends IntersectionType(ParticipantsDto, ProfileSettingsDto) {
  /** The operation flow the profile prices (`GET /operation-flows`); required unless `operationFlowId` names it. */
  @ApiOptionalEnum(OPERATION_FLOW_NAMES, 'client_transaction_transfer')
  @ValidateIf((o: CreateCommissionProfileDto) => o.operationFlowId === undefined || o.flow !== undefined)
  @IsIn(OPERATION_FLOW_NAMES, { message: `must be one of ${OPERATION_FLOW_NAMES.join(', ')} (or give operationFlowId)` })
  flow?: OperationFlow;

  /** The family's name for `flow`: the `id` of an operation flow (`GET /operation-flows`). Must agree with flow when both are given. */
  @ApiOptionalEnum(OPERATION_FLOW_NAMES, 'client_transaction_transfer')
  @IsOptional()
  @IsIn(OPERATION_FLOW_NAMES)
  operationFlowId?: OperationFlow;

  /** The issuer (currency) whose coins the profile prices; one profile per contract, flow and issuer. */
  @ApiUuid()
  @IsUUID()
  issuerId: string;
}

/** The flow and the issuer of a profile are fixed; delete it and create another to change them. */
export class UpdateCommissionProfileDto extends PartialType(
  PickType(CreateCommissionProfileDto, ['name', 'description', 'active'] as const),
) {}

/**
 * A multi-currency profile: the exchange flow (`isMultiCurrency` in `GET /operation-flows`) from one issuer's currency to
 * another's. It prices exchanges from `sourceIssuerId` to `destinationIssuerId`, ahead of the flow's profile for the
 * source issuer alone (which prices exchanges to any other currency).
 */
export class CreateMultiCurrencyProfileDto extends IntersectionType(ParticipantsDto, ProfileSettingsDto) {
  @ApiEnum(OPERATION_FLOW_NAMES, 'exchange')
  @IsDefined()
  @IsIn(OPERATION_FLOW_NAMES)
  operationFlowId: OperationFlow;

  /** The issuer of the currency sold. */
  @ApiUuid()
  @IsUUID()
  sourceIssuerId: string;

  /** The issuer of the currency bought; another than the source's. */
  @ApiUuid()
  @IsUUID()
  destinationIssuerId: string;
}

/** A participant specification as answered: always `no` (every participant). */
export class ParticipantSpecificationAnswerDto {
  @ApiEnum(['no'])
  type: 'no';
  @ApiTextOrNull()
  value: null;
}

/** The issuer of a profile, with its currency. */
export class ProfileIssuerDto {
  @ApiUuid()
  id: string;
  @ApiProperty({ type: 'integer', example: 1001 })
  sn: number;
  @ApiExample('USD')
  currency: string;
  @ApiTextOrNull('$')
  symbol: string | null;
  /** Minor units per major unit of the currency: amounts of the profile's rules have its decimals. */
  @ApiExample(100)
  fraction: number;
}

export class CommissionProfileDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  contractId: string;
  /** The operation flow priced, as `GET /operation-flows` answers it (its `id` is the flow's name). */
  flow: OperationFlowDto;
  /** The issuer of the currency priced (for a multi-currency profile: the one sold). */
  issuer: ProfileIssuerDto;
  /** A multi-currency profile's issuer of the currency bought; null for any other profile. */
  @ApiProperty({ type: ProfileIssuerDto, nullable: true })
  destinationIssuer: ProfileIssuerDto | null;
  srcParticipantSpecification: ParticipantSpecificationAnswerDto;
  destParticipantSpecification: ParticipantSpecificationAnswerDto;
  @ApiTextOrNull()
  name: string | null;
  @ApiTextOrNull()
  description: string | null;
  active: boolean;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

export class CommissionProfileResponseDto {
  status: 'ok';
  message: string;
  profile: CommissionProfileDto;
}

export class CommissionProfileFilterDto {
  @ApiPropertyOptional({ enum: OPERATION_FLOW_NAMES, isArray: true })
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(20)
  @IsIn(OPERATION_FLOW_NAMES, { each: true })
  flows?: string[];

  @UuidList()
  issuerIds?: string[];

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class CommissionProfileViewDto extends PageRequestDto {
  @Nested(() => CommissionProfileFilterDto, 'optional')
  filter?: CommissionProfileFilterDto;
}

export class CommissionProfilePageDto extends PageDto {
  records: CommissionProfileDto[];
}

/** The answer of a deletion. */
export class DeletedDto {
  status: 'ok';
  message: string;
  @ApiUuid()
  id: string;
}
