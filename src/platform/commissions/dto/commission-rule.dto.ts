import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsOptional, ValidateIf, ValidateNested } from 'class-validator';
import type { JsonDecimal } from '../../common/json-decimal';
import { PageDto, PageRequestDto, SortOrder } from '../../common/paging.dto';
import { IsAfter, IsIsoDateTime } from '../../common/validators';
import { COMMISSION_DIRECTION_NAMES, COMMISSION_PAYERS, CommissionDirection, CommissionPayer } from '../fee';
import { RULE_CRITERIA, RuleCriteria } from '../commission-rules';
import { CommissionValueAnswerDto, CommissionValueDto, IsCommissionNumber } from './commission-value.dto';
import {
  ApiDateTime,
  ApiDateTimeOrNull,
  ApiEnum,
  ApiOptionalEnum,
  ApiUuid,
  Nested,
  OptionalDateTime,
  OptionalFlag,
} from '../../common/dto-fields';

/** A condition of a rule: the fee of the amounts from beginAmount (inclusive) up to endAmount (exclusive). */
export class CommissionConditionDto {
  /** Lower bound of the amount range, inclusive; default 0. No more decimals than the currency allows, never negative. */
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '0', default: 0 })
  @IsOptional()
  @IsCommissionNumber()
  beginAmount?: string | number;

  /** Upper bound, exclusive; absent or null: no upper bound. Must be greater than beginAmount. */
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '1000.00', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsCommissionNumber()
  endAmount?: string | number | null;

  @IsDefined()
  @Nested(() => CommissionValueDto)
  commission: CommissionValueDto;
}

export class CreateCommissionRuleDto {
  /** When the rule starts to apply, inclusive (ISO 8601). */
  @ApiDateTime('2026-01-01T00:00:00Z')
  @IsIsoDateTime()
  beginDate: string;

  /** When it stops applying, exclusive (ISO 8601); absent or null: no end. Must be later than beginDate. */
  @ApiPropertyOptional({ format: 'date-time', nullable: true, example: '2027-01-01T00:00:00Z' })
  @IsOptional()
  @IsIsoDateTime()
  @IsAfter('beginDate')
  endDate?: string | null;

  /**
   * Who pays the fee: `sender` (debited amount + fee), `recipient` (credited amount − fee) or `shared` (the sender pays
   * half the fee rounded up to the currency's smallest unit, the recipient the rest). Required unless `direction` says it.
   */
  @ApiOptionalEnum(COMMISSION_PAYERS, 'sender')
  @ValidateIf((o: CreateCommissionRuleDto) => o.direction === undefined || o.payer !== undefined)
  @IsIn(COMMISSION_PAYERS, { message: 'must be one of sender, recipient, shared (or give direction)' })
  payer?: CommissionPayer;

  /** The family's name of who pays: `OUT` is `sender`, `IN` is `recipient`, `SHARED` is `shared`. Must agree with payer when both are given. */
  @ApiOptionalEnum(COMMISSION_DIRECTION_NAMES, 'OUT')
  @IsOptional()
  @IsIn(COMMISSION_DIRECTION_NAMES)
  direction?: CommissionDirection;

  /** Default true. Two active rules of one profile never cover the same moment (409). */
  @OptionalFlag(true)
  active?: boolean;

  /** Amount ranges and their fees; ranges of one rule never overlap (409). An amount in no range pays nothing. */
  @ApiPropertyOptional({ type: [CommissionConditionDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => CommissionConditionDto)
  conditions?: CommissionConditionDto[];
}

/** Changes a rule; `conditions`, when given, replaces all of them. */
export class UpdateCommissionRuleDto extends PartialType(CreateCommissionRuleDto) {}

export class CommissionConditionAnswerDto {
  @ApiUuid()
  id: string;
  @ApiProperty({ type: 'number', example: 0, description: 'Inclusive lower bound, with the currency’s decimals' })
  beginAmount: JsonDecimal;
  @ApiProperty({ type: 'number', nullable: true, example: 1000, description: 'Exclusive upper bound; null: none' })
  endAmount: JsonDecimal | null;
  commission: CommissionValueAnswerDto;
  /** The same commission under the family's name for it (its screens read `value`). */
  value: CommissionValueAnswerDto;
}

export class CommissionRuleDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  profileId: string;
  @ApiUuid()
  contractId: string;
  @ApiDateTime()
  beginDate: string;
  @ApiDateTimeOrNull()
  endDate: string | null;
  @ApiEnum(COMMISSION_PAYERS)
  payer: string;
  /** Who pays in the family's words: `OUT` (sender), `IN` (recipient) or `SHARED`. */
  @ApiEnum(COMMISSION_DIRECTION_NAMES)
  feeDirection: string;
  active: boolean;
  /** By beginAmount. */
  conditions: CommissionConditionAnswerDto[];
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

export class CommissionRuleResponseDto {
  status: 'ok';
  message: string;
  rule: CommissionRuleDto;
}

export class CommissionRuleFilterDto {
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiOptionalEnum(COMMISSION_PAYERS)
  @IsOptional()
  @IsIn(COMMISSION_PAYERS)
  payer?: string;

  /** The family's name of the payer (`OUT`, `IN`, `SHARED`). */
  @ApiOptionalEnum(COMMISSION_DIRECTION_NAMES)
  @IsOptional()
  @IsIn(COMMISSION_DIRECTION_NAMES)
  direction?: CommissionDirection;
}

export class CommissionRuleSortDto {
  @SortOrder()
  beginDate?: 'asc' | 'desc';
}

export class CommissionRuleViewDto extends PageRequestDto {
  /**
   * Mandatory (release 4.10.0). `FOR_DATE`: rules in force at `date` (beginDate ≤ date < endDate);
   * `BEFORE_DATE`: rules that ended at or before `date` (endDate ≤ date); `FROM_DATE`: rules that
   * begin at or after `date` (beginDate ≥ date).
   */
  @ApiEnum(RULE_CRITERIA, 'FOR_DATE')
  @IsDefined({ message: 'is required' })
  @IsIn(RULE_CRITERIA)
  filterCriteria: RuleCriteria;

  /** The date filterCriteria compares with (ISO 8601); default: now. */
  @OptionalDateTime()
  date?: string;

  @Nested(() => CommissionRuleFilterDto, 'optional')
  filter?: CommissionRuleFilterDto;

  /** Default: beginDate ascending. */
  @Nested(() => CommissionRuleSortDto, 'optional')
  sort?: CommissionRuleSortDto;
}

export class CommissionRulePageDto extends PageDto {
  records: CommissionRuleDto[];
}
