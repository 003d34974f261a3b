import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, registerDecorator, ValidateIf, ValidationArguments, ValidationOptions } from 'class-validator';
import type { JsonDecimal } from '../../common/json-decimal';
import { Money } from '../../common/money';
import { COMMISSION_TYPES, CommissionType, FEE_ROUNDINGS, FeeRounding, usesFixed, usesPercent } from '../fee';
import { ApiEnum } from '../../common/dto-fields';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Why a commission number is refused, or undefined when it is a decimal from 0 to `max` with at most 18 decimals. */
export function commissionNumberProblem(value: unknown, max?: number): string | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  if (typeof text !== 'string' || !(DECIMAL.test(text) || (typeof value === 'number' && text !== ''))) {
    return 'must be a decimal number such as "1.5"';
  }
  const number = new Money(text);
  if (number.isNegative() && !number.isZero()) return 'must not be negative';
  if (number.decimalPlaces() > 18) return 'must have at most 18 decimals';
  if (number.gte('1e20')) return 'is too large';
  if (max !== undefined && number.gt(max)) return `must be at most ${max}`;
  return undefined;
}

/**
 * A value of a commission (a percent or a fixed amount): a decimal string or a JSON number, never
 * negative (specification 2.3 and 8: for every kind of commission), at most `max`. Shared by the
 * commission conditions of contracts and by provider and product commissions.
 */
export function IsCommissionNumber(max?: number, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isCommissionNumber',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: (args: ValidationArguments) => commissionNumberProblem(args.value, max) ?? '', ...options },
      validator: { validate: (value: unknown) => commissionNumberProblem(value, max) === undefined },
    });
}

/** Why a minimum fee is refused: as any commission number, and never on a `zero` commission (which has no fee). */
function minFeeProblem(value: unknown, dto: object): string | undefined {
  if ((dto as CommissionValueDto).type === 'zero') return 'must be absent for a zero commission, which has no fee (use fixed)';
  return commissionNumberProblem(value);
}

function IsMinFee(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isMinFee',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: (args: ValidationArguments) => minFeeProblem(args.value, args.object) ?? '' },
      validator: { validate: (value: unknown, args: ValidationArguments) => minFeeProblem(value, args.object) === undefined },
    });
}

/**
 * A commission value, as every kind of commission (internal, provider, product) takes it. The
 * values its type uses are required; none may be negative, whatever the type.
 */
export class CommissionValueDto {
  @ApiEnum(COMMISSION_TYPES, 'percent')
  @IsIn(COMMISSION_TYPES)
  type: CommissionType;

  /**
   * Percent of the amount, 0 to 100, an exact decimal (up to 18 decimals). Required by `percent`,
   * `greater_of_fixed_or_percent`, `lesser_of_fixed_or_percent` and `fixed_and_percent`. Never negative.
   */
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '1.5', nullable: true })
  @ValidateIf((o: CommissionValueDto) => usesPercent(o.type) || (o.valuePercent !== undefined && o.valuePercent !== null))
  @IsDefined({ message: 'is required by this commission type' })
  @IsCommissionNumber(100)
  valuePercent?: string | number | null;

  /**
   * A fixed amount in the profile's currency (no more decimals than it allows). Required by `fixed`,
   * `greater_of_fixed_or_percent`, `lesser_of_fixed_or_percent` and `fixed_and_percent`. Never negative.
   */
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '0.50', nullable: true })
  @ValidateIf((o: CommissionValueDto) => usesFixed(o.type) || (o.valueFixed !== undefined && o.valueFixed !== null))
  @IsDefined({ message: 'is required by this commission type' })
  @IsCommissionNumber()
  valueFixed?: string | number | null;

  /**
   * How the fee is rounded to the currency's decimals: `half_up` (the default: 0.0049 → 0.00, 0.005 → 0.01) or
   * `up` (away from zero: 0.0049 → 0.01), which a payer cannot escape by splitting a payment into small ones.
   */
  @ApiPropertyOptional({ enum: FEE_ROUNDINGS, default: 'half_up' })
  @IsOptional()
  @IsIn(FEE_ROUNDINGS)
  rounding?: FeeRounding;

  /**
   * The least fee, in the currency's units (no more decimals than it allows): the fee is the larger of the type's
   * fee and this. Absent or null: none. Never negative; refused with type `zero`.
   */
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '0.05', nullable: true })
  @ValidateIf((o: CommissionValueDto) => o.minFee !== undefined && o.minFee !== null)
  @IsMinFee()
  minFee?: string | number | null;
}

/** A commission value as answered; values the type does not use are null. */
export class CommissionValueAnswerDto {
  @ApiEnum(COMMISSION_TYPES)
  type: string;
  @ApiProperty({ type: 'number', nullable: true, example: 1.5, description: 'Percent of the amount, an exact decimal' })
  valuePercent: JsonDecimal | null;
  @ApiProperty({ type: 'number', nullable: true, example: 0.5, description: "A fixed amount with the currency's decimals" })
  valueFixed: JsonDecimal | null;
  @ApiProperty({ enum: FEE_ROUNDINGS, description: "How the fee is rounded to the currency's decimals" })
  rounding: string;
  @ApiProperty({ type: 'number', nullable: true, example: 0.05, description: 'The least fee; null: none' })
  minFee: JsonDecimal | null;
}
