import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { IsIsoDateTime, SERIAL_PATTERN } from '../../../platform/common/validators';
import { ApiDateTime, ApiExample, ApiInteger, ApiTextOrNull, ApiUuid, ApiUuidOrNull } from '../../../platform/common/dto-fields';

export class ReportCurrencyQueryDto {
  /**
   * The currency's code, e.g. `USD`; an unknown code is a 404. `GET /reporting/coins` converts every coin into it; the
   * flows and outflows count the coins of this currency only (zeros when the caller holds none).
   */
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

/** The coin's own currency and balance, as the family's clients read them (the chart's label is `currency`). */
export class CoinEntryDto {
  /** The coin's own currency code (the answer's `currency` is the one it is converted into). */
  @ApiExample('EUR')
  currency: string;
  @ApiAmount(40, "The coin's balance, in its own currency")
  amount: JsonDecimal;
  /** The coin's issuer. */
  @ApiUuid()
  issuerId: string;
  /** The symbol of the coin's own currency. */
  @ApiTextOrNull('€')
  symbol: string | null;
}

/** One coin's balance converted into the report's currency, and its share of the total. */
export class CoinShareDto {
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  serial: string;
  name: string;
  /**
   * The coin's balance converted into the report's currency: balance × the rate in force from the coin's currency
   * (1 for a coin of that currency), exact, so it may carry more decimals than the currency has (`43.428`). An exact
   * decimal written as a JSON number; parse losslessly beyond 15 significant digits.
   */
  @ApiProperty({ type: 'number', example: 43.428 })
  amount: JsonDecimal;
  /** The coin's converted balance as a percentage of the total, rounded half-even to two decimals (0 when the total is 0). */
  @ApiProperty({ type: 'number', example: 15.46, minimum: 0, maximum: 100 })
  percentFromTotal: JsonDecimal;
  /**
   * `amount` rounded half-even to the minor unit of the report's currency (`43.43`), what a screen shows: an exact
   * JSON number with the currency's decimals. The rounded amounts may add up to a cent more or less than
   * `roundedTotalAmount`, which rounds the exact total.
   */
  @ApiProperty({ type: 'number', example: 43.43 })
  roundedAmount: JsonDecimal;
  /** The report's currency code (the answer's `currency`), the currency of `amount`; the coin's own is `coinEntry.currency`. */
  @ApiExample('USD')
  currency: string;
  /** The report's currency's symbol. */
  @ApiTextOrNull('$')
  symbol: string | null;
  coinEntry: CoinEntryDto;
}

/**
 * The caller's organization's open coins of every currency, each converted into one currency at the rate in
 * force: their total and each coin's share.
 */
export class CoinsReportDto {
  status: 'ok';
  message: string;
  /**
   * The exact sum of the converted balances of the coins listed: the currency's decimals at least, and every further
   * decimal a conversion brought (`281.088`). An exact decimal written as a JSON number; parse losslessly beyond 15
   * significant digits.
   */
  @ApiProperty({ type: 'number', example: 281.088 })
  totalAmount: JsonDecimal;
  /**
   * `totalAmount` rounded half-even to the currency's minor unit (`281.09`; cents: `277.66` stays `277.66`), the
   * total balance a screen shows: an exact JSON number with the currency's decimals.
   */
  @ApiProperty({ type: 'number', example: 281.09 })
  roundedTotalAmount: JsonDecimal;
  /** The currency's code: the one every coin is converted into. */
  @ApiExample('USD')
  currency: string;
  @ApiTextOrNull('$')
  symbol: string | null;
  /**
   * The codes of the currencies of the organization's open coins that have no rate in force into `currency`
   * (an exchange rate of that ordered pair; the inverse pair's is never inverted), alphabetical: their coins are
   * left out of the total and of `coinsDetail`. Empty when every coin is counted.
   */
  @ApiProperty({ type: [String], example: [] })
  unconvertedCurrencies: string[];
  /** Every client coin of the organization that is not closed and that is counted, by serial; empty when there is none. */
  coinsDetail: CoinShareDto[];
}

/**
 * The currency a flows report counts in. (A base class of explicit properties only: the plugin's would follow a
 * subclass's own in the schema's `required` list.)
 */
export class ReportCurrencyDto {
  @ApiExample('USD')
  currencyCode: string;
  @ApiTextOrNull('$')
  currencySymbol: string | null;
}

/** What entered and what left in the range. */
export class FundsFlowsDto extends ReportCurrencyDto {
  status: 'ok';
  message: string;
  @ApiAmount(250, 'The sum of the money that entered, from outside (see the endpoint)')
  inflowSum: JsonDecimal;
  @ApiAmount(120.5, 'The sum of the money that left, as a positive amount')
  outflowSum: JsonDecimal;
  /** The range's start as used (the default applied), inclusive. */
  @ApiDateTime()
  from: string;
  /** The range's end as used (the default applied), exclusive. */
  @ApiDateTime()
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
  @ApiUuidOrNull()
  categoryId: string | null;
  @ApiAmount(12.5, 'The sum that left in operations tagged with the category, as a positive amount')
  sum: JsonDecimal;
  /** `sum` as a percentage of all that left in the range, rounded half-even to two decimals. */
  @ApiProperty({ type: 'number', example: 25.5, minimum: 0, maximum: 100 })
  percentage: JsonDecimal;
  @ApiInteger(1)
  numberOfOperations: number;
  @ApiExample('USD')
  currencyCode: string;
  @ApiTextOrNull('$')
  currencySymbol: string | null;
}

/**
 * What left in the range: per category of the caller (`records`, the largest first) and per UTC day
 * (`days`: one for every day the range touches, oldest first).
 */
export class DailyOutflowsDto extends ReportCurrencyDto {
  status: 'ok';
  message: string;
  @ApiDateTime()
  from: string;
  @ApiDateTime()
  to: string;
  @ApiAmount(50, 'All that left in the range, as a positive amount')
  outflowSum: JsonDecimal;
  records: CategoryOutflowDto[];
  days: DailyOutflowDto[];
}
