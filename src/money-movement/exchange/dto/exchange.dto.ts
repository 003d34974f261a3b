import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { CalculationDto } from '../../../platform/commissions/dto/calculation.dto';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { Serial } from '../../../platform/common/validators';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';
import { EXCHANGE_DIRECTIONS, type ExchangeDirection } from '../conversion';

/** An exchange between two of the caller's coins in different currencies. */
export class ExchangeRequestDto extends OperationTextDto {
  /** The coin sold from: one of the caller's organization's client coins. */
  @Serial()
  fromCoin: string;

  /** The coin bought into: another client coin of the caller's organization, in another currency. */
  @Serial()
  toCoin: string;

  /**
   * `sell`: what leaves fromCoin (in its currency), the fee added on top; `buy`: what toCoin receives (in its currency).
   * A positive decimal with no more decimals than that currency allows.
   */
  @ApiProperty({ example: '100.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  amount: string | number;

  /** Which side `amount` names: `sell` (the amount sold) or `buy` (the amount bought). */
  @ApiProperty({ enum: EXCHANGE_DIRECTIONS, example: 'sell' })
  @IsIn(EXCHANGE_DIRECTIONS)
  direction: ExchangeDirection;
}

/** What an exchange sold and bought, at which rate and fee. */
export class ExchangeTermsDto {
  @ApiProperty({ enum: EXCHANGE_DIRECTIONS })
  direction: ExchangeDirection;
  @ApiAmount(100, 'What is sold from fromCoin, in its currency (sellCurrency), the fee not included')
  sellAmount: JsonDecimal;
  @ApiProperty({ example: 'EUR' })
  sellCurrency: string;
  @ApiAmount(108.5, 'What toCoin receives, in its currency (buyCurrency)')
  buyAmount: JsonDecimal;
  @ApiProperty({ example: 'USD' })
  buyCurrency: string;
  /** Units of buyCurrency one unit of sellCurrency buys: an exact decimal written as a JSON number. */
  @ApiProperty({ type: 'number', example: 1.085 })
  rate: JsonDecimal;
  /** The exchange rate used. */
  @ApiProperty({ format: 'uuid' })
  rateId: string;
  @ApiProperty({ format: 'date-time' })
  rateValidFrom: string;
  @ApiAmount(0, "The operator's fee, in sellCurrency, paid from fromCoin on top of sellAmount")
  commission: JsonDecimal;
}

/** The price of an exchange without moving money. The common calculation fields are in the sold currency. */
export class ExchangeCalculationDto extends CalculationDto {
  @ApiProperty({ enum: EXCHANGE_DIRECTIONS })
  direction: ExchangeDirection;
  @ApiAmount(100, 'What would be sold from fromCoin, in sellCurrency, the fee not included')
  sellAmount: JsonDecimal;
  @ApiProperty({ example: 'EUR' })
  sellCurrency: string;
  @ApiAmount(108.5, 'What toCoin would receive, in buyCurrency')
  buyAmount: JsonDecimal;
  @ApiProperty({ example: 'USD' })
  buyCurrency: string;
  @ApiProperty({ type: 'number', example: 1.085 })
  rate: JsonDecimal;
  @ApiProperty({ format: 'uuid' })
  rateId: string;
  @ApiProperty({ format: 'date-time' })
  rateValidFrom: string;
  @ApiAmount(0, "The operator's fee, in sellCurrency")
  commission: JsonDecimal;
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
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  issuerId: string;

  /** A positive decimal with no more decimals than the issuer's currency allows. */
  @ApiProperty({ example: '10000.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  amount: string | number;
}
