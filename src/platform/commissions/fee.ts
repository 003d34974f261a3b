import { ApiError } from '../common/api-error';
import type Decimal from 'decimal.js';
import { Money } from '../common/money';
import type { Leg } from '../ledger/ledger.types';

/**
 * How a condition prices an amount (the family's commission value types):
 * - `zero`: no fee;
 * - `percent`: valuePercent % of the amount;
 * - `fixed`: valueFixed;
 * - `greater_of_fixed_or_percent`: the larger of the two;
 * - `lesser_of_fixed_or_percent`: the smaller of the two;
 * - `fixed_and_percent`: their sum.
 */
export const COMMISSION_TYPES = [
  'zero',
  'percent',
  'fixed',
  'greater_of_fixed_or_percent',
  'lesser_of_fixed_or_percent',
  'fixed_and_percent',
] as const;
export type CommissionType = (typeof COMMISSION_TYPES)[number];

/**
 * Who pays the fee: the sender (debited amount + fee), the recipient (credited amount − fee), or both (`shared`): the
 * sender pays half the fee rounded up to the currency's smallest unit, the recipient the rest.
 */
export const COMMISSION_PAYERS = ['sender', 'recipient', 'shared'] as const;
export type CommissionPayer = (typeof COMMISSION_PAYERS)[number];

/**
 * The family's name of who pays (`direction`): `OUT` the fee is charged on what goes out (the sender), `IN` on what
 * comes in (the recipient), `SHARED` split between them.
 */
export const COMMISSION_DIRECTIONS = { OUT: 'sender', IN: 'recipient', SHARED: 'shared' } as const satisfies Record<
  string,
  CommissionPayer
>;
export type CommissionDirection = keyof typeof COMMISSION_DIRECTIONS;
export const COMMISSION_DIRECTION_NAMES = Object.keys(COMMISSION_DIRECTIONS) as CommissionDirection[];

/** The family's direction of a payer. */
export function directionOf(payer: CommissionPayer): CommissionDirection {
  return COMMISSION_DIRECTION_NAMES.find((d) => COMMISSION_DIRECTIONS[d] === payer)!;
}

/** The values each type needs. */
export function usesPercent(type: unknown): boolean {
  return (
    type === 'percent' || type === 'greater_of_fixed_or_percent' || type === 'lesser_of_fixed_or_percent' || type === 'fixed_and_percent'
  );
}
export function usesFixed(type: unknown): boolean {
  return (
    type === 'fixed' || type === 'greater_of_fixed_or_percent' || type === 'lesser_of_fixed_or_percent' || type === 'fixed_and_percent'
  );
}

/**
 * How a fee is rounded to the currency's decimals, once, after the percent and fixed parts are combined exactly
 * (a minimum fee applies to the rounded fee):
 * - `half_up` (the default): the commercial rounding an operator's price list is read with (0.005 → 0.01,
 *   0.0049 → 0.00 at fraction 100). Fair on average, but a payer who splits a payment into parts small enough pays
 *   no fee on any of them (1 % of 0.49 is 0.0049 → 0.00);
 * - `up`: away from zero, any fraction of the smallest unit is a whole one (0.0049 → 0.01), so no part of a
 *   priced payment is free — at the cost of up to one smallest unit more on each payment.
 */
export const FEE_ROUNDINGS = ['half_up', 'up'] as const;
export type FeeRounding = (typeof FEE_ROUNDINGS)[number];
const ROUNDING_MODES: Record<FeeRounding, Decimal.Rounding> = { half_up: Money.ROUND_HALF_UP, up: Money.ROUND_UP };

export interface CommissionValue {
  type: CommissionType;
  /** 0 to 100, exact; null when the type uses none. */
  percent: Money | null;
  /** In the currency's units; null when the type uses none. */
  fixed: Money | null;
  rounding: FeeRounding;
  /** The least fee, in the currency's units (never with `zero`); null: none. */
  minFee: Money | null;
}

/** A condition of a rule: amounts from `beginAmount` (inclusive) up to `endAmount` (exclusive; null: no upper bound). */
export interface CommissionCondition {
  id: string;
  beginAmount: Money;
  endAmount: Money | null;
  value: CommissionValue;
}

/** The rule in force for a flow, a contract and a currency, with its conditions. */
export interface CommissionTerms {
  ruleId: string;
  payer: CommissionPayer;
  conditions: CommissionCondition[];
}

/** The price of a movement: what leaves the payer, what reaches the payee, and the operator's commission. */
export interface Quote {
  commission: Money;
  payerAmount: Money;
  payeeAmount: Money;
  /** Who bore the fee (sender when no rule applies). */
  payer: CommissionPayer;
  /** The rule and condition that priced it, if any. */
  ruleId: string | null;
  conditionId: string | null;
}

/** The condition whose range holds the amount: beginAmount ≤ amount < endAmount. */
export function conditionFor(conditions: readonly CommissionCondition[], amount: Money): CommissionCondition | undefined {
  return conditions.find((c) => amount.gte(c.beginAmount) && (c.endAmount === null || amount.lt(c.endAmount)));
}

/**
 * The fee of one condition's value on an amount: its type's fee rounded to `scale` decimals as the value says
 * (FEE_ROUNDINGS), and at least `minFee`. Never negative.
 */
export function feeOf(value: CommissionValue, amount: Money, scale: number): Money {
  const zero = new Money(0);
  const percent = () => amount.times(value.percent ?? zero).dividedBy(100);
  const fixed = () => value.fixed ?? zero;
  let fee: Money;
  switch (value.type) {
    case 'zero':
      fee = zero;
      break;
    case 'percent':
      fee = percent();
      break;
    case 'fixed':
      fee = fixed();
      break;
    case 'greater_of_fixed_or_percent':
      fee = Money.max(fixed(), percent());
      break;
    case 'lesser_of_fixed_or_percent':
      fee = Money.min(fixed(), percent());
      break;
    case 'fixed_and_percent':
      fee = fixed().plus(percent());
      break;
    default:
      throw new Error(`Unknown commission type ${String(value.type)}`);
  }
  fee = fee.toDecimalPlaces(scale, ROUNDING_MODES[value.rounding]);
  // A minimum is met whatever the rounding: one finer than the currency (a gate rule's, for any currency) rounds up.
  if (value.minFee) fee = Money.max(fee, value.minFee.toDecimalPlaces(scale, Money.ROUND_UP));
  // Values are validated non-negative and the database checks them: a negative fee is a bug.
  if (fee.isNegative()) throw new Error(`A commission came out negative: ${fee.toFixed()}`);
  return fee;
}

/**
 * Prices an amount under the terms in force (none: free). The sender pays amount + fee; the
 * recipient pays by receiving amount − fee, which a fee larger than the amount cannot (409);
 * shared, the sender pays half the fee rounded up to the currency's smallest unit on top of the
 * amount and the recipient receives the amount less the rest (409 when the rest exceeds it).
 * Always: payerAmount = payeeAmount + commission, commission ≥ 0.
 */
/** A Money is immutable: the one zero fee every unpriced movement shares. */
const NO_FEE = new Money(0);

export function priceOf(terms: CommissionTerms | null, amount: Money, scale: number): Quote {
  const condition = terms ? conditionFor(terms.conditions, amount) : undefined;
  const commission = condition ? feeOf(condition.value, amount, scale) : NO_FEE;
  const payer = terms?.payer ?? 'sender';
  const ruleId = terms?.ruleId ?? null;
  const conditionId = condition?.id ?? null;
  // Written out, not spread (`{ ...priced, payerAmount }`): V8 copies a spread followed by more keys through a slow path.
  if (payer === 'sender') {
    const payerAmount = commission.isZero() ? amount : amount.plus(commission);
    return { commission, payer, ruleId, conditionId, payerAmount, payeeAmount: amount };
  }
  // The fee is already at the currency's scale, so both halves are too and add up to it exactly.
  const senderShare = payer === 'shared' ? commission.dividedBy(2).toDecimalPlaces(scale, Money.ROUND_UP) : new Money(0);
  const recipientShare = commission.minus(senderShare);
  if (recipientShare.gt(amount)) {
    throw new ApiError(
      'exception.commission.exceeds_amount',
      `The commission ${recipientShare.toFixed(scale)} is larger than the amount ${amount.toFixed(scale)} the recipient would pay it from`,
    );
  }
  return { commission, payer, ruleId, conditionId, payerAmount: amount.plus(senderShare), payeeAmount: amount.minus(recipientShare) };
}

/**
 * The legs that carry a quote: the payee's share from the payer to the payee, and the fee from
 * the payer to the commission coin (`collector`). A fee of zero has no leg.
 */
export function legsOf(quote: Quote, payer: string, payee: string, collector: string | null): Leg[] {
  const legs: Leg[] = [{ from: payer, to: payee, amount: quote.payeeAmount }];
  if (quote.commission.gt(0)) {
    if (!collector) throw new Error('A commission is due but no commission coin was locked');
    legs.push({ from: payer, to: collector, amount: quote.commission });
  }
  return legs;
}

/** What an operation records of the rule that priced it (in its details), for audits. */
export function commissionDetails(quote: Quote): Record<string, unknown> | undefined {
  return quote.ruleId ? { commission: { ruleId: quote.ruleId, conditionId: quote.conditionId, payer: quote.payer } } : undefined;
}
