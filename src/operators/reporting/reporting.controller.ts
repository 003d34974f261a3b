import { Caller, Principal, Query, Route, Routes, SerialParam } from '../../platform/http';
import * as dto from './dto/reporting.dto';
import { ReportingService } from './reporting.service';

const CURRENCY = { access: ['COIN_REPORT_VIEWER'], errors: [['exception.currency.not_found', 'no currency with this code']] } as const;
const COIN = { access: ['COIN_REPORT_VIEWER'], errors: [['exception.coin.not_found', "not one of the organization's coins"]] } as const;

/** A wallet dashboard's figures, over the caller's organization's own coins only. */
@Routes('reporting/coins', 'reporting')
export class ReportingController {
  constructor(private readonly reporting: ReportingService) {}

  /**
   * The total of the organization's open coins in a currency, each coin converted into it at the rate in force
   * from its own currency (exact, and rounded half-even to the currency's minor unit), and each coin's share of it.
   */
  @Route('GET', '', { ...CURRENCY, summary: 'Total and share of each coin, converted into a currency' })
  reportCoins(@Query() query: dto.ReportCurrencyQueryDto, @Caller() caller: Principal): Promise<dto.CoinsReportDto> {
    return this.reporting.coins(caller, query.currency);
  }

  /**
   * What entered and left the organization's coins of a currency in [from, to). A move between two
   * of the organization's own coins is left out of both sums; a reversal counts as a flow the other way.
   */
  @Route('GET', 'funds-flows', { ...CURRENCY, summary: 'Inflow and outflow of the organization in a currency' })
  reportFundsFlows(@Query() query: dto.ReportCurrencyRangeQueryDto, @Caller() caller: Principal): Promise<dto.FundsFlowsDto> {
    return this.reporting.fundsFlows(caller, query);
  }

  /**
   * What left the organization's coins of a currency in [from, to) (at most 366 days; moves between its own coins left
   * out): per category the caller tagged the operations with, and per UTC day.
   */
  @Route('GET', 'outflows', { ...CURRENCY, summary: 'Outflow per category and per day in a currency' })
  reportDailyOutflows(@Query() query: dto.ReportCurrencyRangeQueryDto, @Caller() caller: Principal): Promise<dto.DailyOutflowsDto> {
    return this.reporting.outflows(caller, query);
  }

  /** What left one of the organization's coins in [from, to) (at most 366 days), to any other coin: per category and per UTC day. */
  @Route('GET', 'outflows/:serial', { ...COIN, summary: 'Outflow of one coin per category and per day' })
  reportCoinOutflows(
    @SerialParam() serial: string,
    @Query() query: dto.ReportRangeQueryDto,
    @Caller() caller: Principal,
  ): Promise<dto.DailyOutflowsDto> {
    return this.reporting.coinOutflows(caller, serial, query);
  }

  /** What entered and left one of the organization's coins in [from, to), from or to any other coin (the organization's own included). */
  @Route('GET', 'funds-flows/:serial', { ...COIN, summary: 'Inflow and outflow of one coin' })
  reportCoinFundsFlows(
    @SerialParam() serial: string,
    @Query() query: dto.ReportRangeQueryDto,
    @Caller() caller: Principal,
  ): Promise<dto.FundsFlowsDto> {
    return this.reporting.coinFundsFlows(caller, serial, query);
  }
}
