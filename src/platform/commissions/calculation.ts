import { amountOf } from '../common/json-decimal';
import { Money, scaleOf } from '../common/money';
import type { LockedCoin } from '../ledger/ledger.types';
import type { Quote } from './fee';
import type { CalculationDto } from './dto/calculation.dto';

/** The fields every calculation answers, from a quote, the payer's coin and the tools as sent. */
export function calculationOf(
  amount: Money,
  quote: Quote,
  payer: Pick<LockedCoin, 'issuer_id' | 'issuer_sn' | 'code' | 'symbol' | 'fraction'>,
  tool: { type: string; srcValue: string | null; destValue: string | null },
): CalculationDto {
  const scale = scaleOf(payer.fraction);
  return {
    status: 'ok',
    message: 'OK',
    transactionAmount: amountOf(amount, scale),
    senderAmountPush: amountOf(quote.payerAmount, scale),
    recipientAmountPush: amountOf(quote.payeeAmount, scale),
    commissionAmountPush: amountOf(quote.commission, scale),
    issuer: { id: payer.issuer_id, sn: Number(payer.issuer_sn), currency: payer.code, symbol: payer.symbol },
    paymentToolDetails: { type: tool.type, srcValue: tool.srcValue, destValue: tool.destValue, currency: payer.code, symbol: payer.symbol },
  };
}
