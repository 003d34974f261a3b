import { Caller, Principal, Query, Route, Routes, SerialParam } from '../../platform/http';
import * as dto from './dto/reporting.dto';
import { ReportingService } from './reporting.service';

const CURRENCY = { access: ['COIN_REPORT_VIEWER'], errors: [['exception.currency.not_found', 'no currency with this code']] } as const;
const COIN = { access: ['COIN_REPORT_VIEWER'], errors: [['exception.coin.not_found', "not one of the organization's coins"]] } as const;

/** A wallet dashboard's figures, over the caller's organization's own coins only. */
@Routes('reporting/coins', 'reporting')
export class ReportingController {
  constructor(private readonly reporting: ReportingService) {}

  /** The organization's open coins totalled in a currency at the rates in force (exact, and rounded half-even), and each coin's share. */
  @Route('GET', '', { ...CURRENCY, summary: 'Total and share of each coin, converted into a currency' })
  reportCoins(@Query() query: dto.ReportCurrencyQueryDto, @Caller() caller: Principal): Promise<dto.CoinsReportDto> {
    return this.reporting.coins(caller, query.currency);
  }

  /** What entered and left the organization's coins of a currency in [from, to), moves between them left out; a reversal flows back. */
  @Route('GET', 'funds-flows', { ...CURRENCY, summary: 'Inflow and outflow of the organization in a currency' })
  reportFundsFlows(@Query() query: dto.ReportCurrencyRangeQueryDto, @Caller() caller: Principal): Promise<dto.FundsFlowsDto> {
    return this.reporting.fundsFlows(caller, query);
  }

  /** What left the organization's coins of a currency in [from, to) (≤ 366 days; moves between them left out), per category and UTC day. */
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
