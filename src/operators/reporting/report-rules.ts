import { ApiError } from '../../platform/common/api-error';
import { Money } from '../../platform/common/money';

/** Without `from`, a report covers this many UTC days, the day of `to` included. */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range of the daily outflows, in days. */
export const MAX_DAILY_RANGE_DAYS = 366;

const DAY_MS = 24 * 60 * 60 * 1000;
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A report's time range: entries dated at or after `from` and before `to`. A plain date as `to` is
 * the last day of the range, included: the family's client sends the last day of a month as `to`.
 */
export interface ReportRange {
  /** ISO 8601 texts for SQL: as the client sent them (to the microsecond), a plain date as its midnight UTC. */
  from: string;
  to: string;
  /** The same instants to the millisecond, for answers and checks. */
  fromDate: Date;
  toDate: Date;
}

const asInstant = (value: string) => (PLAIN_DATE.test(value) ? `${value}T00:00:00Z` : value);
/** A plain date as the end of a range: the midnight UTC that ends that day. */
const asEnd = (value: string) =>
  PLAIN_DATE.test(value) ? new Date(Date.parse(`${value}T00:00:00Z`) + DAY_MS).toISOString().replace('.000Z', 'Z') : value;

/** Midnight UTC of the first of the DEFAULT_RANGE_DAYS days that end with the UTC day of `end` (exclusive). */
function defaultStart(end: Date): Date {
  const last = new Date(end.getTime() - 1);
  return new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), last.getUTCDate() - (DEFAULT_RANGE_DAYS - 1)));
}

/**
 * The range of a report from its optional query fields (already validated as ISO 8601): `to`
 * defaults to now (a plain date is its day's end, the day included), `from` to midnight UTC 29 days before the UTC day of `to`, so the default is
 * the last 30 UTC days with today. The end must be later than the start (a 400 otherwise, also
 * when only `from` was given and it is not in the past).
 */
export function reportRange(from: string | undefined, to: string | undefined, now: Date, maxDays?: number): ReportRange {
  const toText = to === undefined ? now.toISOString() : asEnd(to);
  const toDate = new Date(Date.parse(toText));
  const fromText = from === undefined ? defaultStart(toDate).toISOString() : asInstant(from);
  const fromDate = new Date(Date.parse(fromText));
  if (toDate.getTime() <= fromDate.getTime()) {
    throw ApiError.invalid('to', to === undefined ? 'must be later than from (to defaults to now)' : 'must be later than from');
  }
  if (maxDays !== undefined && toDate.getTime() - fromDate.getTime() > maxDays * DAY_MS) {
    throw ApiError.invalid('to', `must be at most ${maxDays} days after from`);
  }
  return { from: fromText, to: toText, fromDate, toDate };
}

/** `part` as a percentage of `total`, rounded half-even to two decimals; 0 when the total is 0. */
export function percentOf(part: Money, total: Money): Money {
  if (total.isZero()) return new Money(0);
  return part.times(100).dividedBy(total).toDecimalPlaces(2, Money.ROUND_HALF_EVEN);
}

/**
 * An amount rounded half-even to the currency's minor unit (`scale` decimals: 2 for cents). A sum converted
 * from other currencies can carry more decimals than its currency has; this is the figure a screen shows.
 */
export function roundedToMinorUnit(amount: Money, scale: number): Money {
  return amount.toDecimalPlaces(scale, Money.ROUND_HALF_EVEN);
}

/**
 * An exact amount as written in an answer: at least the currency's `scale` decimals, and every further
 * decimal it carries (a converted amount: `43.428` in a currency of cents), never rounded.
 */
export function exactAmountText(amount: Money, scale: number): string {
  return amount.toFixed(Math.max(scale, amount.decimalPlaces()));
}
