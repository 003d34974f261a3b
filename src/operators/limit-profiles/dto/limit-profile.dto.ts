import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Equals, IsBoolean, IsIn, IsOptional } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { IsAmount } from '../../../platform/common/money-validators';
import {
  GATE_LIMIT_TX_TYPES,
  type GateLimitTxType,
  LIMIT_QUALIFIERS,
  LIMIT_TIME_UNITS,
  type LimitQualifier,
  type LimitTimeUnit,
} from '../../../platform/commissions/limits';
import { ApiDateTime, ApiEnum, ApiUuid, ApiUuidOrNull, OptionalFlag } from '../../../platform/common/dto-fields';

/** A new limit of a gate commission profile (the client's body), for one transaction type of the gate. */
export class CreateGateLimitProfileDto {
  /** The gate transactions it counts: `TOPUP` (money in) or `REDEEM` (money out). */
  @ApiEnum(GATE_LIMIT_TX_TYPES, 'TOPUP')
  @IsIn(GATE_LIMIT_TX_TYPES)
  txType: GateLimitTxType;

  /** Limits per product are not offered: absent or null (the client sends null). */
  @ApiPropertyOptional({ type: String, nullable: true, example: null })
  @IsOptional()
  @Equals(null, { message: 'productId must be null: limits apply to every product of the gate' })
  productId?: null;

  /** `amount`: the sum moved; `quantity`: the number of operations (never `per_transaction`). */
  @ApiEnum(LIMIT_QUALIFIERS, 'amount')
  @IsIn(LIMIT_QUALIFIERS)
  qualifier: LimitQualifier;

  /** One operation, or a calendar day, ISO week, month, quarter or year in UTC, or ever (`per_life`). */
  @ApiEnum(LIMIT_TIME_UNITS, 'per_day')
  @IsIn(LIMIT_TIME_UNITS)
  timeUnit: LimitTimeUnit;

  /**
   * The most an organization may move (`amount`, in the profile's currency, with no more decimals than it allows) or
   * the most operations it may make (`quantity`, a whole number); 0 forbids the operations.
   */
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '1000.00' })
  @IsAmount()
  value: string | number;

  /** Default true; an inactive limit counts nothing and refuses nothing. */
  @OptionalFlag(true)
  active?: boolean;
}

/** A new limit of a commission profile (the client's body): it applies to the profile's flow and currency. */
export class CreateLimitProfileDto extends OmitType(CreateGateLimitProfileDto, ['txType', 'productId'] as const) {}

/** What the client's edit form changes: the value and whether the limit is active (its kind never changes). */
export class UpdateLimitProfileDto {
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '2000.00' })
  @IsOptional()
  @IsAmount()
  value?: string | number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class LimitProfileDto {
  @ApiUuid()
  id: string;
  /** The commission profile it belongs to (null for a gate commission profile's). */
  @ApiUuidOrNull()
  profileId: string | null;
  /** The gate commission profile it belongs to (null for a commission profile's). */
  @ApiUuidOrNull()
  gateProfileId: string | null;
  /** The gate transactions it counts; null for a commission profile's. */
  @ApiProperty({ type: String, enum: GATE_LIMIT_TX_TYPES, nullable: true })
  txType: GateLimitTxType | null;
  @ApiEnum(LIMIT_QUALIFIERS)
  qualifier: LimitQualifier;
  @ApiEnum(LIMIT_TIME_UNITS)
  timeUnit: LimitTimeUnit;
  @ApiProperty({ type: 'number', example: 1000, description: 'An exact decimal: an amount with the currency’s decimals, or a count' })
  value: JsonDecimal;
  active: boolean;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

export class LimitProfileListDto {
  status: 'ok';
  message: string;
  /** Oldest first. */
  @ApiProperty({ type: [LimitProfileDto] })
  records: LimitProfileDto[];
}

export class LimitProfileResponseDto {
  status: 'ok';
  message: string;
  limitProfile: LimitProfileDto;
}
