import type { JsonDecimal } from '../../common/json-decimal';
import { ApiAmount } from '../../common/money-validators';
import { IssuerRefDto } from '../../ledger/dto/operation.dto';
import { ApiEnum, ApiExample, ApiTextOrNull } from '../../common/dto-fields';

export class PaymentToolDetailsDto {
  @ApiEnum(['COIN', 'SMART_CARD', 'VOUCHER'])
  type: string;
  /** The payer's tool as sent (null when the payer is outside the service, e.g. a bank). */
  @ApiTextOrNull()
  srcValue: string | null;
  /** The payee's tool as sent (null when the payee is outside the service). */
  @ApiTextOrNull()
  destValue: string | null;
  @ApiExample('USD')
  currency: string;
  @ApiTextOrNull('$')
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
