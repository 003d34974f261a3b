import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { OperationResultDto } from '../../platform/ledger/dto/operation.dto';
import {
  ExchangeCalculationDto,
  ExchangeCalculatorDto,
  ExchangeRequestDto,
  ExchangeResultDto,
  exchangeTermsOf,
  ReserveFundingDto,
} from './dto/exchange.dto';
import { ExchangeService } from './exchange.service';

@ApiTags('exchange')
@Controller('exchange')
export class ExchangeController {
  constructor(private readonly exchange: ExchangeService) {}

  /**
   * Exchanges between two of the caller's coins in different currencies at the rate in force of the ordered pair, in one
   * operation of type `exchange`. An existing pair never answers 404: a missing rate or a reserve short of funds is a 409.
   */
  @Post()
  @RequirePermissions('EXCHANGE_CREATOR')
  @ApiConflictResponse({
    description:
      'exception.exchange.rate_missing: no rate of the ordered pair is in force; exception.exchange.reserve_insufficient: the bought ' +
      "currency's reserve cannot pay the bought amount; exception.coin.insufficient_funds, exception.coin.inactive",
    type: ErrorResponseDto,
  })
  @Idempotent({ groupCommit: true })
  @ApiOperation({ summary: 'Exchange between two currencies', operationId: 'createExchange' })
  @ApiCreatedResponse({ type: ExchangeResultDto })
  @ApiNotFoundResponse({ description: "exception.coin.not_found: a coin does not exist or is not the caller's", type: ErrorResponseDto })
  async create(@Body() dto: ExchangeRequestDto, @CurrentPrincipal() principal: Principal): Promise<ExchangeResultDto> {
    const { process, exchange } = await this.exchange.execute(principal, exchangeTermsOf(dto));
    return { status: 'ok', message: 'Exchange completed', process, exchange };
  }

  /** What the exchange would sell, buy and cost at the rate in force, without moving money. */
  @Post('calculate')
  @HttpCode(200)
  @RequirePermissions('EXCHANGE_CREATOR')
  @ApiOperation({ summary: 'Calculate an exchange', operationId: 'calculateExchange' })
  @ApiOkResponse({ type: ExchangeCalculationDto })
  @ApiNotFoundResponse({ description: "exception.coin.not_found: a coin does not exist or is not the caller's", type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.exchange.rate_missing: no rate of the ordered pair is in force', type: ErrorResponseDto })
  calculate(@Body() dto: ExchangeRequestDto, @CurrentPrincipal() principal: Principal): Promise<ExchangeCalculationDto> {
    return this.exchange.calculate(principal, exchangeTermsOf(dto));
  }

  /**
   * The same calculation with the names the family's web client reads: `topUpAmount` (what toCoin would receive),
   * `withdrawAmount` (what would leave fromCoin, the fee included) and `exchangeRate {id, rate, inIssuer, outIssuer}`.
   */
  @Post('calculator')
  @HttpCode(200)
  @RequirePermissions('EXCHANGE_CREATOR')
  @ApiOperation({ summary: 'Calculate an exchange (the web client’s calculator)', operationId: 'exchangeCalculator' })
  @ApiOkResponse({ type: ExchangeCalculatorDto })
  @ApiNotFoundResponse({ description: "exception.coin.not_found: a coin does not exist or is not the caller's", type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.exchange.rate_missing: no rate of the ordered pair is in force', type: ErrorResponseDto })
  calculator(@Body() dto: ExchangeRequestDto, @CurrentPrincipal() principal: Principal): Promise<ExchangeCalculatorDto> {
    return this.exchange.calculator(principal, exchangeTermsOf(dto));
  }

  /** Moves money from an issuer's bank-settlement coin to its exchange_reserve coin (operation `reserve_funding`). */
  @Post('reserves/fund')
  @RequirePermissions('EXCHANGE_RESERVE_MANAGER')
  @ApiConflictResponse({
    description: 'exception.issuer.inactive: the issuer or its currency is inactive',
    type: ErrorResponseDto,
  })
  @Idempotent()
  @ApiOperation({ summary: "Fund an issuer's exchange reserve", operationId: 'fundExchangeReserve' })
  @ApiCreatedResponse({ type: OperationResultDto })
  @ApiNotFoundResponse({ description: 'exception.issuer.not_found', type: ErrorResponseDto })
  async fund(@Body() dto: ReserveFundingDto): Promise<OperationResultDto> {
    return { status: 'ok', message: 'Exchange reserve funded', process: await this.exchange.fundReserve(dto) };
  }
}
