import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { SERIAL_PATTERN, SerialParam } from '../../platform/common/validators';
import {
  CoinsReportDto,
  DailyOutflowsDto,
  FundsFlowsDto,
  ReportCurrencyQueryDto,
  ReportCurrencyRangeQueryDto,
  ReportRangeQueryDto,
} from './dto/reporting.dto';
import { ReportingService } from './reporting.service';

/** A wallet dashboard's figures, over the caller's organization's own coins only. */
@ApiTags('reporting')
@Controller('reporting/coins')
export class ReportingController {
  constructor(private readonly reporting: ReportingService) {}

  /**
   * The total of the organization's open coins in a currency, each coin converted into it at the rate in force
   * from its own currency (exact, and rounded half-even to the currency's minor unit), and each coin's share of it.
   */
  @Get()
  @RequirePermissions('COIN_REPORT_VIEWER')
  @ApiOperation({ summary: 'Total and share of each coin, converted into a currency', operationId: 'reportCoins' })
  @ApiOkResponse({ type: CoinsReportDto })
  @ApiNotFoundResponse({ description: 'exception.currency.not_found: no currency with this code', type: ErrorResponseDto })
  coins(@Query() query: ReportCurrencyQueryDto, @CurrentPrincipal() principal: Principal): Promise<CoinsReportDto> {
    return this.reporting.coins(principal, query.currency);
  }

  /**
   * What entered and left the organization's coins of a currency in [from, to). A move between two
   * of the organization's own coins is left out of both sums; a reversal counts as a flow the other way.
   */
  @Get('funds-flows')
  @RequirePermissions('COIN_REPORT_VIEWER')
  @ApiOperation({ summary: 'Inflow and outflow of the organization in a currency', operationId: 'reportFundsFlows' })
  @ApiOkResponse({ type: FundsFlowsDto })
  @ApiNotFoundResponse({ description: 'exception.currency.not_found: no currency with this code', type: ErrorResponseDto })
  fundsFlows(@Query() query: ReportCurrencyRangeQueryDto, @CurrentPrincipal() principal: Principal): Promise<FundsFlowsDto> {
    return this.reporting.fundsFlows(principal, query);
  }

  /**
   * What left the organization's coins of a currency in [from, to) (at most 366 days; moves between its own coins left
   * out): per category the caller tagged the operations with, and per UTC day.
   */
  @Get('outflows')
  @RequirePermissions('COIN_REPORT_VIEWER')
  @ApiOperation({ summary: 'Outflow per category and per day in a currency', operationId: 'reportDailyOutflows' })
  @ApiOkResponse({ type: DailyOutflowsDto })
  @ApiNotFoundResponse({ description: 'exception.currency.not_found: no currency with this code', type: ErrorResponseDto })
  outflows(@Query() query: ReportCurrencyRangeQueryDto, @CurrentPrincipal() principal: Principal): Promise<DailyOutflowsDto> {
    return this.reporting.outflows(principal, query);
  }

  /** What left one of the organization's coins in [from, to) (at most 366 days), to any other coin: per category and per UTC day. */
  @Get('outflows/:serial')
  @RequirePermissions('COIN_REPORT_VIEWER')
  @ApiOperation({ summary: 'Outflow of one coin per category and per day', operationId: 'reportCoinOutflows' })
  @ApiParam({ name: 'serial', description: "One of the organization's coins", schema: { type: 'string', pattern: SERIAL_PATTERN.source } })
  @ApiOkResponse({ type: DailyOutflowsDto })
  @ApiNotFoundResponse({ description: "exception.coin.not_found: not one of the organization's coins", type: ErrorResponseDto })
  coinOutflows(
    @SerialParam() serial: string,
    @Query() query: ReportRangeQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DailyOutflowsDto> {
    return this.reporting.coinOutflows(principal, serial, query);
  }

  /** What entered and left one of the organization's coins in [from, to), from or to any other coin (the organization's own included). */
  @Get('funds-flows/:serial')
  @RequirePermissions('COIN_REPORT_VIEWER')
  @ApiOperation({ summary: 'Inflow and outflow of one coin', operationId: 'reportCoinFundsFlows' })
  @ApiParam({ name: 'serial', description: "One of the organization's coins", schema: { type: 'string', pattern: SERIAL_PATTERN.source } })
  @ApiOkResponse({ type: FundsFlowsDto })
  @ApiNotFoundResponse({ description: "exception.coin.not_found: not one of the organization's coins", type: ErrorResponseDto })
  coinFundsFlows(
    @SerialParam() serial: string,
    @Query() query: ReportRangeQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<FundsFlowsDto> {
    return this.reporting.coinFundsFlows(principal, serial, query);
  }
}
