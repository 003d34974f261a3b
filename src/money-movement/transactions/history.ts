import { amountOf, JsonDecimal } from '../../platform/common/json-decimal';
import { Money } from '../../platform/common/money';
import type { OperationCoinDto, OperationDto, OperationLegDto } from '../../platform/ledger/dto/operation.dto';
import { familyTypeOf } from '../../platform/ledger/operation-types';
import type { HistoryRecordDto, OperationAmountDetailsDto } from './dto/transaction.dto';
import type { HistoryCategoryRow } from './transactions.repository';

/** What a page of history knows besides its operations. */
export interface HistoryContext {
  organizationId: string;
  categories: Map<string, HistoryCategoryRow>;
}

/** The operation types whose amount is an invoice's or a merchant's price (`invoiceAmount`). */
const INVOICED = ['invoice_payment', 'merchant_payment'];

const decimalsOf = (amount: JsonDecimal) => amount.text.split('.')[1]?.length ?? 0;

/** An operation as the history lists it, in the family's vocabulary. */
export function toHistoryRecord(op: OperationDto, context: HistoryContext): HistoryRecordDto {
  const category = context.categories.get(op.id);
  const categoryName = category?.name ?? null;
  return {
    ...op,
    type: familyTypeOf(op.type),
    operationAmountDetails: amountDetails(op),
    clientCoin: clientCoin(op, context),
    categoryName,
    categoryImageLink: category?.image_link ?? null,
    // An exchange's sides (the kernel's), each under the exchange's category.
    children: op.children.map((side) => ({ ...side, categoryName })),
    invoiceAmount: INVOICED.includes(op.type) ? op.amount : null,
  };
}

/** The net of the operation's legs on one coin: what entered it less what left it. */
function netOf(legs: OperationLegDto[], serial: string): Money {
  return legs.reduce(
    (net, leg) => net.plus(leg.to.serial === serial ? leg.amount.text : 0).minus(leg.from.serial === serial ? leg.amount.text : 0),
    new Money(0),
  );
}

/**
 * Each side's amounts from the legs: the sender's gross is what left its coin, its fee what left beyond the amount; the
 * recipient's net is what its coin kept, its fee what left it again within the operation.
 */
function amountDetails(op: OperationDto): OperationAmountDetailsDto | null {
  if (!op.from || !op.to) return null;
  const legs = op.transactions;
  const senderScale = decimalsOf(op.amount);
  const recipientScale = decimalsOf(legs.find((l) => l.to.serial === op.to!.serial)?.amount ?? op.amount);
  const senderGross = netOf(legs, op.from.serial).negated();
  const senderFee = Money.max(senderGross.minus(op.amount.text), 0);
  const recipientNet = netOf(legs, op.to.serial);
  const recipientFee = legs.filter((l) => l.from.serial === op.to!.serial).reduce((sum, l) => sum.plus(l.amount.text), new Money(0));
  return {
    senderGrossAmount: amountOf(senderGross, senderScale),
    senderNetAmount: amountOf(senderGross.minus(senderFee), senderScale),
    senderFee: amountOf(senderFee, senderScale),
    recipientGrossAmount: amountOf(recipientNet.plus(recipientFee), recipientScale),
    recipientNetAmount: amountOf(recipientNet, recipientScale),
    recipientFee: amountOf(recipientFee, recipientScale),
  };
}

/** The customer's coin of the operation: the caller's organization's where it has one, else the first customer coin. */
function clientCoin(op: OperationDto, context: HistoryContext): OperationCoinDto | null {
  const sides = [op.from, op.to].filter((c): c is OperationCoinDto => c !== null && c.type === 'client');
  return sides.find((c) => c.organizationId === context.organizationId) ?? sides[0] ?? null;
}
