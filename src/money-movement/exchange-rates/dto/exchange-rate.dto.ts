import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, Matches } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { IsIsoDateTime } from '../../../platform/common/validators';
import { Amount, ApiDateTime, ApiExample, ApiUuid, Nested } from '../../../platform/common/dto-fields';

export const CURRENCY_CODE = /^[A-Z][A-Z0-9]{1,9}$/;
const CODE_MESSAGE = 'must be a currency code such as USD';

/** A rate of an ordered currency pair, taking effect at `validFrom`. */
export class CreateExchangeRateDto {
  /** The currency sold (one unit of it buys `rate` units of toCurrency). */
  @ApiProperty({ example: 'EUR', pattern: CURRENCY_CODE.source })
  @Matches(CURRENCY_CODE, { message: CODE_MESSAGE })
  fromCurrency: string;

  /** The currency bought; another than fromCurrency. */
  @ApiProperty({ example: 'USD', pattern: CURRENCY_CODE.source })
  @Matches(CURRENCY_CODE, { message: CODE_MESSAGE })
  toCurrency: string;

  /** How many units of toCurrency one unit of fromCurrency buys: an exact decimal above 0 with at most 18 decimals. */
  @Amount('1.0850')
  rate: string | number;

  /** When the rate takes effect (ISO 8601 with an offset); now when left out. A pair has at most one rate per moment. */
  @ApiPropertyOptional({ format: 'date-time', example: '2026-01-01T00:00:00Z' })
  @IsOptional()
  @IsIsoDateTime()
  validFrom?: string;
}

export class ExchangeRateDto {
  @ApiUuid()
  id: string;
  @ApiExample('EUR')
  fromCurrency: string;
  @ApiExample('USD')
  toCurrency: string;
  /** Units of toCurrency one unit of fromCurrency buys: an exact decimal (up to 18 decimals) written as a JSON number. */
  @ApiProperty({ type: 'number', example: 1.085 })
  rate: JsonDecimal;
  @ApiDateTime()
  validFrom: string;
  @ApiDateTime()
  createdAt: string;
}

export class ExchangeRateResponseDto {
  status: 'ok';
  message: string;
  rate: ExchangeRateDto;
}

export class ExchangeRateFilterDto {
  @ApiPropertyOptional({ example: 'EUR', pattern: CURRENCY_CODE.source })
  @IsOptional()
  @Matches(CURRENCY_CODE, { message: CODE_MESSAGE })
  fromCurrency?: string;

  @ApiPropertyOptional({ example: 'USD', pattern: CURRENCY_CODE.source })
  @IsOptional()
  @Matches(CURRENCY_CODE, { message: CODE_MESSAGE })
  toCurrency?: string;

  /** true: only the rate in force now of each pair (the latest validFrom not after now). */
  @IsOptional()
  @IsBoolean()
  current?: boolean;
}

export class ExchangeRateSortDto {
  /** The default: newest validFrom first. */
  @SortOrder()
  validFrom?: 'asc' | 'desc';
}

export class ExchangeRateViewDto extends PageRequestDto {
  @Nested(() => ExchangeRateFilterDto, 'optional')
  filter?: ExchangeRateFilterDto;

  @Nested(() => ExchangeRateSortDto, 'optional')
  sort?: ExchangeRateSortDto;
}

export class ExchangeRatePageDto extends PageDto {
  records: ExchangeRateDto[];
}
