import { amountOf, JsonDecimal } from '../common/json-decimal';
import { Money } from '../common/money';
import type {
  OperationAmountDetailsDto,
  OperationChildDto,
  OperationCoinDto,
  OperationDto,
  OperationLegDto,
  OperationRecordChildDto,
  OperationRecordDto,
  OperationRecordFieldsDto,
} from './dto/operation.dto';
import type { OperationType } from './operation-types';

/** What a record knows of an operation besides the operation: whose it is shown to, and what links to it. */
export interface OperationRecordContext {
  /** The caller's organization: its coin is the record's `clientCoin` where it has one. */
  organizationId: string | null;
  /** The caller's category of the operation. */
  category?: { name: string; imageLink: string | null } | null;
  /** The invoice the operation paid. */
  invoiceId?: string | null;
  /** The point of sale a merchant payment was taken at. */
  posName?: string | null;
}

/** The operation types whose amount is an invoice's or a merchant's price (`invoiceAmount`, `merchantCoinSerial`). */
const INVOICED: readonly string[] = ['invoice_payment', 'merchant_payment'] satisfies OperationType[];
/** The operation types that move cash or bank money in or out of the service (`cashAmount`). */
const CASH: readonly string[] = [
  'bank_topup',
  'bank_withdrawal',
  'cash_in',
  'cash_out',
  'cash_desk_redeem',
  'cash_input',
  'cash_collect',
  'cash_investment',
] satisfies OperationType[];

const decimalsOf = (amount: JsonDecimal) => amount.text.split('.')[1]?.length ?? 0;

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
export function amountDetailsOf(op: OperationDto): OperationAmountDetailsDto | null {
  const { from, to } = op;
  if (!from || !to) return null;
  const legs = op.transactions;
  const senderScale = decimalsOf(op.amount);
  const recipientScale = decimalsOf(legs.find((l) => l.to.serial === to.serial)?.amount ?? op.amount);
  const senderGross = netOf(legs, from.serial).negated();
  const senderFee = Money.max(senderGross.minus(op.amount.text), 0);
  const recipientNet = netOf(legs, to.serial);
  const recipientFee = legs.filter((l) => l.from.serial === to.serial).reduce((sum, l) => sum.plus(l.amount.text), new Money(0));
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
function clientCoinOf(op: OperationDto, organizationId: string | null): OperationCoinDto | null {
  const sides = [op.from, op.to].filter((c): c is OperationCoinDto => c !== null && c.type === 'client');
  return sides.find((c) => c.organizationId === organizationId) ?? sides[0] ?? null;
}

/** The record fields of an operation (shared by the record and each of an exchange's sides). */
function recordFields(op: OperationDto, context: OperationRecordContext): OperationRecordFieldsDto {
  const details = amountDetailsOf(op);
  const invoiced = INVOICED.includes(op.type);
  return {
    clientCoin: clientCoinOf(op, context.organizationId),
    operationAmountDetails: details,
    netAmount: details?.recipientNetAmount ?? op.amount,
    cashAmount: CASH.includes(op.type) ? op.amount : null,
    invoiceAmount: invoiced ? op.amount : null,
    invoiceIdentifier: context.invoiceId ?? null,
    merchantCoinSerial: invoiced ? (op.to?.serial ?? null) : null,
    posCompanyName: context.posName ?? null,
    categoryName: context.category?.name ?? null,
    categoryImageLink: context.category?.imageLink ?? null,
  };
}

/** One side of an exchange as a record: its main leg's coins and amount, the exchange's texts, parties and category. */
function childRecord(op: OperationDto, side: OperationChildDto, fields: OperationRecordFieldsDto): OperationRecordChildDto {
  const sold = side.type === 'withdraw_exchange_transaction';
  const main = side.transactions.find((l) => l.id === side.id) ?? side.transactions[0];
  const amount = (sold ? side.outgoingAmount : side.incomingAmount) ?? main.amount;
  return {
    ...side,
    requestIdentifier: op.requestIdentifier,
    requestStatus: op.requestStatus,
    description: op.description,
    sender: op.sender,
    recipient: op.recipient,
    ...fields,
    clientCoin: side.coin,
    operationAmountDetails: null,
    netAmount: amount,
    amount,
    commission: sold ? op.commission : amountOf(new Money(0), decimalsOf(amount)),
    from: main.from,
    to: main.to,
  };
}

/**
 * The one mapping of an operation to the family's record: the operation with its customer's coin, the amounts that
 * moved on it, what it paid and the caller's category; an exchange's sides likewise.
 */
export function toOperationRecord(op: OperationDto, context: OperationRecordContext): OperationRecordDto {
  const fields = recordFields(op, context);
  const coin = fields.clientCoin ?? op.from ?? op.to;
  const received = coin !== null && coin.serial === op.to?.serial && coin.serial !== op.from?.serial;
  const details = fields.operationAmountDetails;
  return {
    ...op,
    ...fields,
    coin,
    incomingAmount: coin && received ? (details?.recipientNetAmount ?? op.amount) : null,
    outgoingAmount: coin && !received ? (details?.senderNetAmount ?? op.amount) : null,
    children: op.children.map((side) => childRecord(op, side, fields)),
  };
}
