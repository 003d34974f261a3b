import { ApiParam, Body, Caller, Param, Principal, Route, Routes } from '../../platform/http';
import { ApiError } from '../../platform/common/api-error';
import * as dto from './dto/exchange-rate.dto';
import { ExchangeRatesService } from './exchange-rates.service';

/** A currency code in a path; malformed is a 400. */
function CodeParam(name: string): ParameterDecorator {
  return Param(name, {
    transform(value: unknown) {
      if (typeof value !== 'string' || !dto.CURRENCY_CODE.test(value)) throw ApiError.invalid(name, 'must be a currency code such as USD');
      return value;
    },
  });
}

/** A currency code's path parameter in the document (finishDocument types ids and serials, not codes). */
const codeParam = (name: string, description: string, example: string) =>
  ApiParam({ name, description, schema: { type: 'string', pattern: dto.CURRENCY_CODE.source, example } });

const UNKNOWN_CODE = ['exception.currency.not_found', 'a currency code is unknown'] as const;

@Routes('exchange-rates')
export class ExchangeRatesController {
  constructor(private readonly rates: ExchangeRatesService) {}

  /** Sets the rate of an ordered currency pair from `validFrom` (default now); earlier rates stay for the record. */
  @Route('POST', '', {
    access: ['EXCHANGE_RATE_MANAGER'],
    summary: 'Set an exchange rate',
    errors: [UNKNOWN_CODE, ['exception.exchange_rate.duplicate', 'the pair already has a rate taking effect then']],
  })
  async createExchangeRate(@Body() body: dto.CreateExchangeRateDto, @Caller() caller: Principal): Promise<dto.ExchangeRateResponseDto> {
    return { status: 'ok', message: 'Exchange rate set', rate: await this.rates.create(caller, body) };
  }

  /** Rates, newest validFrom first; `filter.current` keeps the rate in force of each pair. */
  @Route('POST', 'view', { access: ['EXCHANGE_RATE_VIEWER'], summary: 'Search exchange rates', status: 200 })
  viewExchangeRates(@Body() body: dto.ExchangeRateViewDto): Promise<dto.ExchangeRatePageDto> {
    return this.rates.view(body);
  }

  /** The rate in force now of the ordered pair `from` → `to` (currency codes). */
  @Route('GET', ':from/:to', {
    access: ['EXCHANGE_RATE_VIEWER'],
    summary: 'The current rate of a currency pair',
    errors: [
      UNKNOWN_CODE,
      ['exception.exchange.rate_missing', 'both currencies exist but no rate of this ordered pair is in force (never a 404)'],
    ],
  })
  @codeParam('from', 'Code of the currency sold', 'EUR')
  @codeParam('to', 'Code of the currency bought', 'USD')
  async getExchangeRate(@CodeParam('from') from: string, @CodeParam('to') to: string): Promise<dto.ExchangeRateResponseDto> {
    return { status: 'ok', message: 'OK', rate: await this.rates.currentByCodes(from, to) };
  }
}
