import { CalculationDto } from '../../../platform/commissions/dto/calculation.dto';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { ApiExample, ApiTextOrNull } from '../../../platform/common/dto-fields';

export class CalculationCurrencyDto {
  @ApiExample('EUR')
  code: string;
  @ApiTextOrNull('€')
  symbol: string | null;
}

/** A calculation with the names the family's web client reads besides the usual ones. */
export class RequestCalculationDto extends CalculationDto {
  @ApiAmount(10, 'The family’s name for recipientAmountPush')
  amountToSend: JsonDecimal;
  @ApiAmount(0.1, 'The family’s name for commissionAmountPush')
  commissionAmount: JsonDecimal;
  currency: CalculationCurrencyDto;
}

/** Adds the family's names to a calculation. */
export function withClientNames(calculation: CalculationDto): RequestCalculationDto {
  return {
    ...calculation,
    amountToSend: calculation.recipientAmountPush,
    commissionAmount: calculation.commissionAmountPush,
    currency: { code: calculation.issuer.currency, symbol: calculation.issuer.symbol },
  };
}
