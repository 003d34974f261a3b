import { ApiProperty } from '@nestjs/swagger';
import type { JsonDecimal } from '../../common/json-decimal';
import { ApiAmount } from '../../common/money-validators';
import { IssuerRefDto } from '../../ledger/dto/operation.dto';

export class PaymentToolDetailsDto {
  @ApiProperty({ enum: ['COIN', 'SMART_CARD', 'VOUCHER'] })
  type: string;
  /** The payer's tool as sent (null when the payer is outside the service, e.g. a bank). */
  @ApiProperty({ type: String, nullable: true })
  srcValue: string | null;
  /** The payee's tool as sent (null when the payee is outside the service). */
  @ApiProperty({ type: String, nullable: true })
  destValue: string | null;
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  symbol: string | null;
}

/** What every `…/calculate` answers, besides its own fields: the price of the flow as existing clients read it. */
export class CalculationDto {
  status: 'ok';
  message: string;
  @ApiAmount(10, 'What the payer asked to move')
  transactionAmount: JsonDecimal;
  @ApiAmount(10.1, 'What leaves the payer')
  senderAmountPush: JsonDecimal;
  @ApiAmount(10, 'What reaches the payee')
  recipientAmountPush: JsonDecimal;
  @ApiAmount(0.1, "The operator's fee")
  commissionAmountPush: JsonDecimal;
  /** The issuer of the amounts (the payer coin's): its id and serial number, its currency's code and symbol. */
  issuer: IssuerRefDto;
  paymentToolDetails: PaymentToolDetailsDto;
}
