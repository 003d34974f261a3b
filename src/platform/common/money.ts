import Decimal from 'decimal.js';
import { ApiError } from './api-error';

/** Decimal arithmetic wide enough for NUMERIC(38,18): nothing is ever rounded silently. */
export const Money = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -40, toExpPos: 40 });
export type Money = Decimal;

const DECIMAL = /^-?\d+(\.\d+)?$/;
/** NUMERIC(38,18) leaves 20 digits before the point. */
const MAX_INTEGER_DIGITS = 20;

/** The number of decimals a currency allows: log10 of its fraction (100 → 2). */
export function scaleOf(fraction: string | number | bigint): number {
  const text = String(fraction);
  if (!/^10*$/.test(text)) throw new Error(`fraction must be a power of ten, got ${text}`);
  return text.length - 1;
}

export interface AmountRules {
  /** Zero is accepted (default: rejected). */
  allowZero?: boolean;
  /** Negative values are accepted (default: rejected). */
  allowNegative?: boolean;
}

/**
 * Reads an amount from a request: a decimal string, or a JSON number whose text the JSON parser
 * kept exact. Throws a 400 naming `parameter` when it is malformed, out of range or has more
 * decimals than `scale` allows.
 */
export function parseAmount(value: unknown, scale: number, parameter = 'amount', rules: AmountRules = {}): Money {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !(DECIMAL.test(text) || (typeof value === 'number' && Number.isFinite(value)))) {
    throw ApiError.invalid(parameter, 'must be a decimal number such as "10.50"');
  }
  const amount = new Money(text);
  if (!amount.isFinite()) throw ApiError.invalid(parameter, 'must be a decimal number such as "10.50"');
  if (amount.decimalPlaces() > scale) {
    throw ApiError.invalid(
      parameter,
      scale === 0 ? 'must be a whole number in this currency' : `must have at most ${scale} decimals in this currency`,
    );
  }
  if (amount.abs().trunc().toFixed(0).replace(/^0$/, '').length > MAX_INTEGER_DIGITS) throw ApiError.invalid(parameter, 'is too large');
  if (amount.isZero() && !rules.allowZero) throw ApiError.invalid(parameter, 'must not be 0');
  if (amount.isNegative() && !amount.isZero() && !rules.allowNegative) throw ApiError.invalid(parameter, 'must not be negative');
  return amount;
}

/** Decimal text as the database and `toFixed()` write it: an optional minus, no leading zero, an optional fraction. */
const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.(\d+))?$/;
const NEGATIVE_ZERO = /^-0(?:\.0+)?$/;

/**
 * Formats an amount for a response: a string with exactly the currency's decimals. Plain text with no more decimals than
 * that (what the database answers for a column, what a Money's `toFixed()` gave) only gains zeros: no Decimal is made for
 * it (an answer formats several amounts; parsing each was a twentieth of a transfer's CPU). Anything else — more
 * decimals, an exponent, a negative zero — is Money's to round or normalize.
 */
export function formatAmount(value: Money | string, scale: number): string {
  if (typeof value === 'string') {
    const plain = PLAIN_DECIMAL.exec(value);
    const decimals = plain ? (plain[1]?.length ?? 0) : Infinity;
    if (decimals <= scale && !NEGATIVE_ZERO.test(value)) {
      if (decimals === scale) return value;
      return `${value}${decimals === 0 ? '.' : ''}${'0'.repeat(scale - decimals)}`;
    }
  }
  return new Money(value).toFixed(scale);
}
