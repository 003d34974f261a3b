import type { Money } from '../common/money';

/** How the commission-rule view picks rules by date (release 4.10.0: one of them is mandatory). */
export const RULE_CRITERIA = ['FOR_DATE', 'BEFORE_DATE', 'FROM_DATE'] as const;
export type RuleCriteria = (typeof RULE_CRITERIA)[number];

export interface AmountRange {
  beginAmount: Money;
  /** Exclusive; null: no upper bound. */
  endAmount: Money | null;
}

/** The first two ranges ([beginAmount, endAmount)) that share an amount, or undefined when none do. */
export function overlappingRanges<T extends AmountRange>(ranges: readonly T[]): [T, T] | undefined {
  const sorted = [...ranges].sort((a, b) => a.beginAmount.comparedTo(b.beginAmount));
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1];
    if (previous.endAmount === null || previous.endAmount.gt(sorted[i].beginAmount)) return [previous, sorted[i]];
  }
  return undefined;
}
