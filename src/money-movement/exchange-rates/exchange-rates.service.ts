import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { JsonDecimal } from '../../platform/common/json-decimal';
import { Money, parseAmount } from '../../platform/common/money';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type { CreateExchangeRateDto, ExchangeRateDto, ExchangeRateViewDto } from './dto/exchange-rate.dto';
import { ExchangeRateRow, ExchangeRatesRepository } from './exchange-rates.repository';
import { RatesInForce } from './rates-in-force';

/** Rates carry up to 18 decimals, like NUMERIC(38,18). */
export const RATE_SCALE = 18;

/** The rate an exchange uses: exact, with its row for the operation's details. */
export interface RateInForce {
  id: string;
  rate: Money;
  validFrom: Date;
  fromCode: string;
  toCode: string;
}

/**
 * Exchange rates per ordered currency pair. A rate from→to says how many units of `to` one unit of
 * `from` buys; the rate in force is the one with the latest validFrom not after now. An exchange
 * needs a rate of its own ordered pair: the inverse pair's rate is never inverted (1/rate is not
 * exact, and operators quote the two directions with their own spread).
 */
@Injectable()
export class ExchangeRatesService {
  constructor(
    private readonly rates: ExchangeRatesRepository,
    private readonly uow: UnitOfWork,
    private readonly kept: RatesInForce,
  ) {}

  async create(principal: Principal, dto: CreateExchangeRateDto): Promise<ExchangeRateDto> {
    const [fromId, toId] = await this.pair(dto.fromCurrency, dto.toCurrency, 'toCurrency');
    const rate = parseAmount(dto.rate, RATE_SCALE, 'rate');
    return this.uow.run(async () => {
      const id = await this.rates.insert(fromId, toId, rate.toFixed(), dto.validFrom ?? null, principal.userId);
      if (!id) {
        throw new ApiError(
          'exception.exchange_rate.duplicate',
          `A rate from ${dto.fromCurrency} to ${dto.toCurrency} already takes effect at ${dto.validFrom ?? 'this moment'}`,
        );
      }
      return toRateDto((await this.rates.byId(id))!);
    });
  }

  async view(dto: ExchangeRateViewDto): Promise<Page<ExchangeRateDto>> {
    const { rows, count } = await this.rates.search({
      fromCode: dto.filter?.fromCurrency,
      toCode: dto.filter?.toCurrency,
      current: dto.filter?.current,
      direction: dto.sort?.validFrom === 'asc' ? 'ASC' : 'DESC',
      ...pageWindow(dto),
    });
    return pageOf(dto, count.total, rows.map(toRateDto), count.exact);
  }

  /** `GET /exchange-rates/{from}/{to}`: an unknown currency is a 404; a known pair without a rate in force a 409, never a 404. */
  async currentByCodes(fromCode: string, toCode: string): Promise<ExchangeRateDto> {
    const [fromId, toId] = await this.pair(fromCode, toCode, 'to');
    const row = await this.rates.current(fromId, toId);
    if (!row) throw rateMissing(fromCode, toCode);
    return toRateDto(row);
  }

  /** The rate in force for an exchange between two currencies (codes: unique, never changed); a 409 when there is none. Kept in memory (RatesInForce). */
  async inForce(fromCode: string, toCode: string): Promise<RateInForce> {
    const row = await this.kept.rate(fromCode, toCode);
    if (!row) throw rateMissing(fromCode, toCode);
    return { id: row.id, rate: new Money(row.rate), validFrom: row.valid_from, fromCode: row.from_code, toCode: row.to_code };
  }

  private async pair(fromCode: string, toCode: string, parameter: string): Promise<[string, string]> {
    const ids = await this.rates.currencyIds([fromCode, toCode]);
    for (const code of [fromCode, toCode]) {
      if (!ids.has(code)) throw new ApiError('exception.currency.not_found', `No currency with code ${code}`);
    }
    if (fromCode === toCode) throw ApiError.invalid(parameter, 'must be another currency than the one sold');
    return [ids.get(fromCode)!, ids.get(toCode)!];
  }
}

function rateMissing(fromCode: string, toCode: string): ApiError {
  return new ApiError(
    'exception.exchange.rate_missing',
    `No exchange rate from ${fromCode} to ${toCode} is in force (an exchange uses its own ordered pair's rate, never the inverse pair's)`,
  );
}

/** A rate as an exact JSON number without trailing zeros (`1.085`, `2`, `0.000000000000000001`). */
export function rateOf(value: Money | string): JsonDecimal {
  return new JsonDecimal(new Money(value).toFixed());
}

function toRateDto(row: ExchangeRateRow): ExchangeRateDto {
  return {
    id: row.id,
    fromCurrency: row.from_code,
    toCurrency: row.to_code,
    rate: rateOf(row.rate),
    validFrom: row.valid_from.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}
