import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import {
  CreateExchangeRateDto,
  CURRENCY_CODE,
  ExchangeRatePageDto,
  ExchangeRateResponseDto,
  ExchangeRateViewDto,
} from './dto/exchange-rate.dto';
import { ExchangeRatesService } from './exchange-rates.service';

/** A currency code in a path; malformed is a 400. */
function CodeParam(name: string): ParameterDecorator {
  return Param(name, {
    transform(value: unknown) {
      if (typeof value !== 'string' || !CURRENCY_CODE.test(value)) throw ApiError.invalid(name, 'must be a currency code such as USD');
      return value;
    },
  });
}

@ApiTags('exchange-rates')
@Controller('exchange-rates')
export class ExchangeRatesController {
  constructor(private readonly rates: ExchangeRatesService) {}

  /** Sets the rate of an ordered currency pair from `validFrom` (default now); earlier rates stay for the record. */
  @Post()
  @RequirePermissions('EXCHANGE_RATE_MANAGER')
  @ApiOperation({ summary: 'Set an exchange rate', operationId: 'createExchangeRate' })
  @ApiCreatedResponse({ type: ExchangeRateResponseDto })
  @ApiNotFoundResponse({ description: 'exception.currency.not_found: a currency code is unknown', type: ErrorResponseDto })
  @ApiConflictResponse({
    description: 'exception.exchange_rate.duplicate: the pair already has a rate taking effect then',
    type: ErrorResponseDto,
  })
  async create(@Body() dto: CreateExchangeRateDto, @CurrentPrincipal() principal: Principal): Promise<ExchangeRateResponseDto> {
    return { status: 'ok', message: 'Exchange rate set', rate: await this.rates.create(principal, dto) };
  }

  /** Rates, newest validFrom first; `filter.current` keeps the rate in force of each pair. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('EXCHANGE_RATE_VIEWER')
  @ApiOperation({ summary: 'Search exchange rates', operationId: 'viewExchangeRates' })
  @ApiOkResponse({ type: ExchangeRatePageDto })
  view(@Body() dto: ExchangeRateViewDto): Promise<ExchangeRatePageDto> {
    return this.rates.view(dto);
  }

  /** The rate in force now of the ordered pair `from` → `to` (currency codes). */
  @Get(':from/:to')
  @RequirePermissions('EXCHANGE_RATE_VIEWER')
  @ApiParam({
    name: 'from',
    description: 'Code of the currency sold',
    schema: { type: 'string', pattern: CURRENCY_CODE.source, example: 'EUR' },
  })
  @ApiParam({
    name: 'to',
    description: 'Code of the currency bought',
    schema: { type: 'string', pattern: CURRENCY_CODE.source, example: 'USD' },
  })
  @ApiOperation({ summary: 'The current rate of a currency pair', operationId: 'getExchangeRate' })
  @ApiOkResponse({ type: ExchangeRateResponseDto })
  @ApiNotFoundResponse({ description: 'exception.currency.not_found: a currency code is unknown', type: ErrorResponseDto })
  @ApiConflictResponse({
    description: 'exception.exchange.rate_missing: both currencies exist but no rate of this ordered pair is in force (never a 404)',
    type: ErrorResponseDto,
  })
  async current(@CodeParam('from') from: string, @CodeParam('to') to: string): Promise<ExchangeRateResponseDto> {
    return { status: 'ok', message: 'OK', rate: await this.rates.currentByCodes(from, to) };
  }
}
