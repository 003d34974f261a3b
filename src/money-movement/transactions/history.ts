import { amountOf, JsonDecimal } from '../../platform/common/json-decimal';
import { Money } from '../../platform/common/money';
import type { OperationCoinDto, OperationDto, OperationLegDto } from '../../platform/ledger/dto/operation.dto';
import { familyTypeOf } from '../../platform/ledger/operation-types';
import type { HistoryChildDto, HistoryCoinDto, HistoryRecordDto, OperationAmountDetailsDto } from './dto/transaction.dto';
import type { HistoryCategoryRow, HistoryCoinRow } from './transactions.repository';

/** What a page of history knows besides its operations. */
export interface HistoryContext {
  organizationId: string;
  coins: Map<string, HistoryCoinRow>;
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
    children: op.type === 'exchange' ? exchangeSides(op, context, categoryName) : [],
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

function named(coin: OperationCoinDto, context: HistoryContext): HistoryCoinDto {
  return { ...coin, name: context.coins.get(coin.serial)?.name ?? '' };
}

/** The customer's coin of the operation: the caller's organization's where it has one, else the first customer coin. */
function clientCoin(op: OperationDto, context: HistoryContext): HistoryCoinDto | null {
  const sides = [op.from, op.to].filter((c): c is OperationCoinDto => c !== null && context.coins.get(c.serial)?.type === 'client');
  const coin = sides.find((c) => context.coins.get(c.serial)?.organization_id === context.organizationId) ?? sides[0];
  return coin ? named(coin, context) : null;
}

/** An exchange's two sides: what its source coin sold and what its target coin bought. */
function exchangeSides(op: OperationDto, context: HistoryContext, categoryName: string | null): HistoryChildDto[] {
  if (!op.from || !op.to) return [];
  const sold = op.transactions.find((l) => l.from.serial === op.from!.serial);
  const bought = op.transactions.find((l) => l.to.serial === op.to!.serial);
  const children: HistoryChildDto[] = [];
  if (sold) {
    children.push({
      id: sold.id,
      type: 'withdraw_exchange_transaction',
      coin: named(op.from, context),
      outgoingAmount: sold.amount,
      incomingAmount: null,
      categoryName,
      createdAt: sold.createdAt,
    });
  }
  if (bought) {
    children.push({
      id: bought.id,
      type: 'topup_exchange_transaction',
      coin: named(op.to, context),
      outgoingAmount: null,
      incomingAmount: bought.amount,
      categoryName,
      createdAt: bought.createdAt,
    });
  }
  return children;
}
