import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { IsIsoDateTime, SERIAL_PATTERN } from '../../../platform/common/validators';

export class ReportCurrencyQueryDto {
  /** The currency's code, e.g. `USD`. An unknown code is a 404; one the caller holds no coin of answers zeros. */
  @ApiProperty({ example: 'USD', pattern: '^[A-Z][A-Z0-9]{1,9}$' })
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'must be a currency code such as USD' })
  currency: string;
}

export class ReportRangeQueryDto {
  /**
   * Start of the range, inclusive: an ISO 8601 date-time with an offset, or a date (its midnight
   * UTC). Default: midnight UTC 29 days before the UTC day of `to`, so the default range is the
   * last 30 UTC days, the day of `to` included.
   */
  @ApiPropertyOptional({ format: 'date-time', example: '2026-01-01T00:00:00Z' })
  @IsOptional()
  @IsIsoDateTime()
  from?: string;

  /**
   * End of the range, later than `from` (ISO 8601 as `from`): a date-time is exclusive; a plain date is
   * the range's last day, included (`from=2026-02-01&to=2026-02-28` is February). Default: now.
   */
  @ApiPropertyOptional({ format: 'date-time', example: '2026-03-01T00:00:00Z' })
  @IsOptional()
  @IsIsoDateTime()
  to?: string;
}

export class ReportCurrencyRangeQueryDto extends IntersectionType(ReportCurrencyQueryDto, ReportRangeQueryDto) {}

/** The coin's currency and balance, as the family's clients read them. */
export class CoinEntryDto {
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiAmount(75.25, "The coin's balance")
  amount: JsonDecimal;
  @ApiProperty({ format: 'uuid' })
  issuerId: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  symbol: string | null;
}

/** One coin's share of the total. */
export class CoinShareDto {
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  serial: string;
  name: string;
  @ApiAmount(75.25, "The coin's balance")
  amount: JsonDecimal;
  /** The coin's balance as a percentage of the total, rounded half-even to two decimals (0 when the total is 0). */
  @ApiProperty({ type: 'number', example: 75.25, minimum: 0, maximum: 100 })
  percentFromTotal: JsonDecimal;
  /** `amount` rounded to whole units, half-even, as `roundedTotalAmount`. */
  @ApiProperty({ type: 'integer', example: 75 })
  roundedAmount: JsonDecimal;
  /** The coin's currency code (as `currency` of the answer). */
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  symbol: string | null;
  coinEntry: CoinEntryDto;
}

/** The caller's organization's open coins of one currency: their total and each coin's share. */
export class CoinsReportDto {
  status: 'ok';
  message: string;
  @ApiAmount(100.5, 'The sum of the balances of the coins listed')
  totalAmount: JsonDecimal;
  /** `totalAmount` rounded to whole units, half-even (2.5 → 2, 3.5 → 4): an exact integer as a JSON number. */
  @ApiProperty({ type: 'integer', example: 100 })
  roundedTotalAmount: JsonDecimal;
  /** The currency's code. */
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  symbol: string | null;
  /** Every client coin of the organization in this currency that is not closed, by serial; empty when there is none. */
  coinsDetail: CoinShareDto[];
}

/** What entered and what left in the range. */
export class FundsFlowsDto {
  status: 'ok';
  message: string;
  @ApiProperty({ example: 'USD' })
  currencyCode: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  currencySymbol: string | null;
  @ApiAmount(250, 'The sum of the money that entered, from outside (see the endpoint)')
  inflowSum: JsonDecimal;
  @ApiAmount(120.5, 'The sum of the money that left, as a positive amount')
  outflowSum: JsonDecimal;
  /** The range's start as used (the default applied), inclusive. */
  @ApiProperty({ format: 'date-time' })
  from: string;
  /** The range's end as used (the default applied), exclusive. */
  @ApiProperty({ format: 'date-time' })
  to: string;
}

/** The outflow of one UTC day. */
export class DailyOutflowDto {
  /** The UTC day, `YYYY-MM-DD`. */
  @ApiProperty({ format: 'date', example: '2026-01-31' })
  date: string;
  @ApiAmount(12.5, 'The sum of the money that left that day, as a positive amount (0 for a day without any)')
  outflowSum: JsonDecimal;
}

/** What left in the range under one of the caller's categories (null: operations the caller has not tagged). */
export class CategoryOutflowDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  categoryId: string | null;
  @ApiAmount(12.5, 'The sum that left in operations tagged with the category, as a positive amount')
  sum: JsonDecimal;
  /** `sum` as a percentage of all that left in the range, rounded half-even to two decimals. */
  @ApiProperty({ type: 'number', example: 25.5, minimum: 0, maximum: 100 })
  percentage: JsonDecimal;
  @ApiProperty({ type: 'integer', minimum: 1 })
  numberOfOperations: number;
  @ApiProperty({ example: 'USD' })
  currencyCode: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  currencySymbol: string | null;
}

/**
 * What left in the range: per category of the caller (`records`, the largest first) and per UTC day
 * (`days`: one for every day the range touches, oldest first).
 */
export class DailyOutflowsDto {
  status: 'ok';
  message: string;
  @ApiProperty({ example: 'USD' })
  currencyCode: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  currencySymbol: string | null;
  @ApiProperty({ format: 'date-time' })
  from: string;
  @ApiProperty({ format: 'date-time' })
  to: string;
  @ApiAmount(50, 'All that left in the range, as a positive amount')
  outflowSum: JsonDecimal;
  records: CategoryOutflowDto[];
  days: DailyOutflowDto[];
}
