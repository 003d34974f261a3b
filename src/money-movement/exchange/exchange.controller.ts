import { Body, Caller, Principal, Route, Routes } from '../../platform/http';
import { OperationResultDto } from '../../platform/ledger/dto/operation.dto';
import * as dto from './dto/exchange.dto';
import { ExchangeService } from './exchange.service';

const RATE_MISSING = ['exception.exchange.rate_missing', 'no rate of the ordered pair is in force'] as const;
/** An exchange between two of the caller's coins, priced or made. */
const EXCHANGE = {
  access: ['EXCHANGE_CREATOR'],
  errors: [['exception.coin.not_found', "a coin does not exist or is not the caller's"], RATE_MISSING],
} as const;
/** Priced without moving money. */
const CALCULATION = { ...EXCHANGE, status: 200 } as const;

@Routes('exchange')
export class ExchangeController {
  constructor(private readonly exchange: ExchangeService) {}

  /** Exchanges between two of the caller's coins at the rate in force of their currencies' ordered pair, in one `exchange` operation. */
  @Route('POST', '', {
    ...EXCHANGE,
    idempotent: { groupCommit: true },
    summary: 'Exchange between two currencies',
    errors: [
      ...EXCHANGE.errors,
      ['exception.exchange.reserve_insufficient', "the bought currency's reserve cannot pay the bought amount"],
      'exception.coin.insufficient_funds',
      'exception.coin.inactive',
    ],
  })
  async createExchange(@Body() body: dto.ExchangeRequestDto, @Caller() caller: Principal): Promise<dto.ExchangeResultDto> {
    const { process, exchange } = await this.exchange.execute(caller, dto.exchangeTermsOf(body));
    return { status: 'ok', message: 'Exchange completed', process, exchange };
  }

  /** What the exchange would sell, buy and cost at the rate in force, without moving money. */
  @Route('POST', 'calculate', { ...CALCULATION, summary: 'Calculate an exchange' })
  calculateExchange(@Body() body: dto.ExchangeRequestDto, @Caller() caller: Principal): Promise<dto.ExchangeCalculationDto> {
    return this.exchange.calculate(caller, dto.exchangeTermsOf(body));
  }

  /** The same calculation with the names the family's web client reads: `topUpAmount`, `withdrawAmount` and `exchangeRate`. */
  @Route('POST', 'calculator', { ...CALCULATION, summary: 'Calculate an exchange (the web client’s calculator)' })
  exchangeCalculator(@Body() body: dto.ExchangeRequestDto, @Caller() caller: Principal): Promise<dto.ExchangeCalculatorDto> {
    return this.exchange.calculator(caller, dto.exchangeTermsOf(body));
  }

  /** Moves money from an issuer's bank-settlement coin to its exchange_reserve coin (operation `reserve_funding`). */
  @Route('POST', 'reserves/fund', {
    access: ['EXCHANGE_RESERVE_MANAGER'],
    idempotent: true,
    summary: "Fund an issuer's exchange reserve",
    errors: ['exception.issuer.not_found', 'exception.issuer.inactive'],
  })
  async fundExchangeReserve(@Body() body: dto.ReserveFundingDto): Promise<OperationResultDto> {
    return { status: 'ok', message: 'Exchange reserve funded', process: await this.exchange.fundReserve(body) };
  }
}
