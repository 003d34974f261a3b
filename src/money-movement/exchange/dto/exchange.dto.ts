import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID, ValidateIf } from 'class-validator';
import { CalculationDto } from '../../../platform/commissions/dto/calculation.dto';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { Serial } from '../../../platform/common/validators';
import { IssuerRefDto, OperationDto } from '../../../platform/ledger/dto/operation.dto';
import { EXCHANGE_DIRECTIONS, type ExchangeDirection } from '../conversion';
import { Amount, ApiDateTime, ApiEnum, ApiExample, ApiOptionalEnum, ApiUuid } from '../../../platform/common/dto-fields';

/** An exchange between two of the caller's coins in different currencies. */
export class ExchangeRequestDto extends OperationTextDto {
  /** The coin sold from: one of the caller's organization's client coins. Required unless `inCoinSerial` is given. */
  @ValidateIf((dto: ExchangeRequestDto) => dto.inCoinSerial === undefined || dto.fromCoin !== undefined)
  @Serial()
  fromCoin: string;

  /** The coin bought into: another client coin of the caller's organization, in another currency. Required unless `outCoinSerial` is given. */
  @ValidateIf((dto: ExchangeRequestDto) => dto.outCoinSerial === undefined || dto.toCoin !== undefined)
  @Serial()
  toCoin: string;

  /** The family's web client's name of `fromCoin`. */
  @Serial({ required: false })
  inCoinSerial?: string;

  /** The family's web client's name of `toCoin`. */
  @Serial({ required: false })
  outCoinSerial?: string;

  /**
   * `sell`: what leaves fromCoin (in its currency), the fee added on top; `buy`: what toCoin receives (in its currency).
   * A positive decimal with no more decimals than that currency allows.
   */
  @Amount('100.00')
  amount: string | number;

  /** Which side `amount` names: `sell` (the amount sold) or `buy` (the amount bought); `sell` when neither it nor `exchangeType` is given. */
  @ApiOptionalEnum(EXCHANGE_DIRECTIONS, 'sell')
  @IsOptional()
  @IsIn(EXCHANGE_DIRECTIONS)
  direction: ExchangeDirection;

  /** The family's web client's name of `direction`. */
  @ApiOptionalEnum(EXCHANGE_DIRECTIONS)
  @IsOptional()
  @IsIn(EXCHANGE_DIRECTIONS)
  exchangeType?: ExchangeDirection;
}

/** The request with the family client's names folded into the service's: fromCoin, toCoin, direction. */
export function exchangeTermsOf(dto: ExchangeRequestDto): ExchangeRequestDto {
  // Object.assign, not `{ ...dto, fromCoin }`: V8 copies an object spread followed by more keys through a slow path.
  return Object.assign({}, dto, {
    fromCoin: dto.fromCoin ?? dto.inCoinSerial!,
    toCoin: dto.toCoin ?? dto.outCoinSerial!,
    direction: dto.direction ?? dto.exchangeType ?? 'sell',
  });
}

/** The rate in force, as the family's web client reads it: `in` is the sold currency's issuer, `out` the bought one's. */
export class ExchangeRateRefDto {
  @ApiUuid()
  id: string;
  @ApiProperty({ type: 'number', example: 1.085 })
  rate: JsonDecimal;
  inIssuer: IssuerRefDto;
  outIssuer: IssuerRefDto;
}

/** What an exchange sold and bought, at which rate and fee. */
export class ExchangeTermsDto {
  @ApiEnum(EXCHANGE_DIRECTIONS)
  direction: ExchangeDirection;
  @ApiAmount(100, 'What is sold from fromCoin, in its currency (sellCurrency), the fee not included')
  sellAmount: JsonDecimal;
  @ApiExample('EUR')
  sellCurrency: string;
  @ApiAmount(108.5, 'What toCoin receives, in its currency (buyCurrency)')
  buyAmount: JsonDecimal;
  @ApiExample('USD')
  buyCurrency: string;
  /** Units of buyCurrency one unit of sellCurrency buys: an exact decimal written as a JSON number. */
  @ApiProperty({ type: 'number', example: 1.085 })
  rate: JsonDecimal;
  /** The exchange rate used. */
  @ApiUuid()
  rateId: string;
  @ApiDateTime()
  rateValidFrom: string;
  @ApiAmount(0, "The operator's fee, in sellCurrency, paid from fromCoin on top of sellAmount")
  commission: JsonDecimal;
}

/** The price of an exchange without moving money. The common calculation fields are in the sold currency. */
export class ExchangeCalculationDto extends CalculationDto {
  @ApiEnum(EXCHANGE_DIRECTIONS)
  direction: ExchangeDirection;
  @ApiAmount(100, 'What would be sold from fromCoin, in sellCurrency, the fee not included')
  sellAmount: JsonDecimal;
  @ApiExample('EUR')
  sellCurrency: string;
  @ApiAmount(108.5, 'What toCoin would receive, in buyCurrency')
  buyAmount: JsonDecimal;
  @ApiExample('USD')
  buyCurrency: string;
  @ApiProperty({ type: 'number', example: 1.085 })
  rate: JsonDecimal;
  @ApiUuid()
  rateId: string;
  @ApiDateTime()
  rateValidFrom: string;
  @ApiAmount(0, "The operator's fee, in sellCurrency")
  commission: JsonDecimal;
}

/** `POST /exchange/calculator`: the calculation with the names the family's web client reads. */
export class ExchangeCalculatorDto extends ExchangeCalculationDto {
  @ApiAmount(108.5, 'What toCoin would receive (buyAmount), in its currency')
  topUpAmount: JsonDecimal;
  @ApiAmount(101, 'What would leave fromCoin, the fee included, in its currency')
  withdrawAmount: JsonDecimal;
  exchangeRate: ExchangeRateRefDto;
}

/** The answer of an executed exchange: the operation (type `exchange`, two legs in two currencies, plus the fee's) and its terms. */
export class ExchangeResultDto {
  status: 'ok';
  message: string;
  process: OperationDto;
  exchange: ExchangeTermsDto;
}

/** Money for an issuer's exchange reserve, from its bank-settlement coin. */
export class ReserveFundingDto extends OperationTextDto {
  /** The issuer whose exchange_reserve coin is funded. */
  @ApiUuid()
  @IsUUID()
  issuerId: string;

  /** A positive decimal with no more decimals than the issuer's currency allows. */
  @Amount('10000.00')
  amount: string | number;
}
