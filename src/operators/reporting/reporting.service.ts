import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf, JsonDecimal } from '../../platform/common/json-decimal';
import { Money, scaleOf } from '../../platform/common/money';
import type {
  CoinsReportDto,
  DailyOutflowsDto,
  FundsFlowsDto,
  ReportCurrencyRangeQueryDto,
  ReportRangeQueryDto,
} from './dto/reporting.dto';
import { exactAmountText, MAX_DAILY_RANGE_DAYS, percentOf, reportRange, roundedToMinorUnit } from './report-rules';
import { FlowRow, OutflowScope, ReportCurrencyRow, ReportingRepository } from './reporting.repository';

/**
 * Reports on the caller's organization's own coins, for a wallet dashboard. Across a currency the
 * organization is the boundary: a move between two of its own coins is neither inflow nor outflow.
 * For one coin, the coin is the boundary: money from or to any other coin counts.
 */
@Injectable()
export class ReportingService {
  constructor(private readonly reports: ReportingRepository) {}

  /**
   * The organization's open coins, each converted into the asked currency at the rate in force from its own
   * currency (exactly: balance × rate, every decimal kept), their exact total, and both rounded half-even to
   * the currency's minor unit for display. A coin of a currency without a rate in force into it is left out of
   * the total and the list, and its currency is named in `unconvertedCurrencies`.
   */
  async coins(principal: Principal, code: string): Promise<CoinsReportDto> {
    const currency = await this.currency(code);
    const scale = scaleOf(currency.fraction);
    const coins = await this.reports.openCoins(principal.organizationId, currency.id);
    const converted = coins.flatMap((c) => (c.rate === null ? [] : [{ ...c, value: new Money(c.balance).times(c.rate) }]));
    const total = converted.reduce((sum, c) => sum.plus(c.value), new Money(0));
    const exact = (value: Money) => new JsonDecimal(exactAmountText(value, scale));
    return {
      status: 'ok',
      message: 'OK',
      totalAmount: exact(total),
      roundedTotalAmount: amountOf(roundedToMinorUnit(total, scale), scale),
      currency: currency.code,
      symbol: currency.symbol,
      unconvertedCurrencies: [...new Set(coins.filter((c) => c.rate === null).map((c) => c.code))].sort(),
      coinsDetail: converted.map((c) => ({
        serial: c.serial,
        name: c.name,
        amount: exact(c.value),
        percentFromTotal: amountOf(percentOf(c.value, total), 2),
        roundedAmount: amountOf(roundedToMinorUnit(c.value, scale), scale),
        currency: currency.code,
        symbol: currency.symbol,
        coinEntry: { currency: c.code, amount: amountOf(c.balance, scaleOf(c.fraction)), issuerId: c.issuer_id, symbol: c.symbol },
      })),
    };
  }

  async fundsFlows(principal: Principal, query: ReportCurrencyRangeQueryDto): Promise<FundsFlowsDto> {
    const currency = await this.currency(query.currency);
    const range = reportRange(query.from, query.to, new Date());
    const flows = await this.reports.organizationFlows(principal.organizationId, currency.id, range.from, range.to);
    return flowsAnswer(currency, flows, range.fromDate, range.toDate);
  }

  async coinFundsFlows(principal: Principal, serial: string, query: ReportRangeQueryDto): Promise<FundsFlowsDto> {
    const coin = await this.reports.ownCoin(principal.organizationId, serial);
    if (!coin) throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    const range = reportRange(query.from, query.to, new Date());
    const flows = await this.reports.coinFlows(principal.organizationId, serial, range.from, range.to);
    return flowsAnswer(coin, flows, range.fromDate, range.toDate);
  }

  async outflows(principal: Principal, query: ReportCurrencyRangeQueryDto): Promise<DailyOutflowsDto> {
    const currency = await this.currency(query.currency);
    return this.outflowsOf(principal, 'organization', currency.id, currency, query);
  }

  async coinOutflows(principal: Principal, serial: string, query: ReportRangeQueryDto): Promise<DailyOutflowsDto> {
    const coin = await this.reports.ownCoin(principal.organizationId, serial);
    if (!coin) throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    return this.outflowsOf(principal, 'coin', serial, coin, query);
  }

  private async outflowsOf(
    principal: Principal,
    scope: OutflowScope,
    of: string,
    currency: ReportCurrencyRow,
    query: ReportRangeQueryDto,
  ): Promise<DailyOutflowsDto> {
    const range = reportRange(query.from, query.to, new Date(), MAX_DAILY_RANGE_DAYS);
    const org = principal.organizationId;
    const days = await this.reports.dailyOutflows(scope, org, of, range.from, range.to);
    const categories = await this.reports.categoryOutflows(scope, org, of, range.from, range.to, principal.userId);
    const scale = scaleOf(currency.fraction);
    const total = days.reduce((sum, d) => sum.plus(d.outflow), new Money(0));
    return {
      status: 'ok',
      message: 'OK',
      currencyCode: currency.code,
      currencySymbol: currency.symbol,
      from: range.fromDate.toISOString(),
      to: range.toDate.toISOString(),
      outflowSum: amountOf(total, scale),
      records: categories.map((c) => ({
        categoryId: c.category_id,
        sum: amountOf(c.outflow, scale),
        percentage: amountOf(percentOf(new Money(c.outflow), total), 2),
        numberOfOperations: c.operations,
        currencyCode: currency.code,
        currencySymbol: currency.symbol,
      })),
      days: days.map((d) => ({ date: d.date, outflowSum: amountOf(d.outflow, scale) })),
    };
  }

  private async currency(code: string): Promise<ReportCurrencyRow> {
    const currency = await this.reports.currency(code);
    if (!currency) throw new ApiError('exception.currency.not_found', `No currency ${code}`);
    return currency;
  }
}

function flowsAnswer(currency: ReportCurrencyRow, flows: FlowRow, from: Date, to: Date): FundsFlowsDto {
  const scale = scaleOf(currency.fraction);
  return {
    status: 'ok',
    message: 'OK',
    currencyCode: currency.code,
    currencySymbol: currency.symbol,
    inflowSum: amountOf(flows.inflow, scale),
    outflowSum: amountOf(flows.outflow, scale),
    from: from.toISOString(),
    to: to.toISOString(),
  };
}
