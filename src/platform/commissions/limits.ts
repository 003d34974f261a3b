import { ApiError } from '../common/api-error';
import { Money } from '../common/money';

/** What a limit counts: the `amount` moved, or the `quantity` of operations (the family's qualifiers). */
export const LIMIT_QUALIFIERS = ['amount', 'quantity'] as const;
export type LimitQualifier = (typeof LIMIT_QUALIFIERS)[number];

/**
 * Over what a limit counts (the family's time units): one operation (`per_transaction`, amounts only), a calendar
 * day, ISO week (from Monday), month, quarter or year in UTC, or the organization's whole life (`per_life`).
 */
export const LIMIT_TIME_UNITS = ['per_transaction', 'per_day', 'per_week', 'per_month', 'per_quarter', 'per_year', 'per_life'] as const;
export type LimitTimeUnit = (typeof LIMIT_TIME_UNITS)[number];

/** The transaction types of a gate commission profile's limits. */
export const GATE_LIMIT_TX_TYPES = ['TOPUP', 'REDEEM'] as const;
export type GateLimitTxType = (typeof GATE_LIMIT_TX_TYPES)[number];

/** A gate flow's provider and transaction type: the limits of its gate commission profile apply too. */
export interface GateScope {
  providerId: string;
  txType: GateLimitTxType;
}

/** A limit that applies to a posting, as the database answers it. */
export interface LimitRow {
  id: string;
  qualifier: LimitQualifier;
  time_unit: LimitTimeUnit;
  value: string;
  /** The organization it counts for: the one whose contract decides the price. */
  organization_id: string;
  /** The start of the period in force, UTC (text); null for `per_transaction`. */
  period_start: string | null;
  code: string;
  fraction: string;
}

/** A limit's running sum in its period, as locked for the posting. */
export interface UsageRow {
  limit_profile_id: string;
  amount: string;
  count: number;
}

const PERIOD_WORDS: Record<LimitTimeUnit, string> = {
  per_transaction: 'per operation',
  per_day: 'per day',
  per_week: 'per week',
  per_month: 'per month',
  per_quarter: 'per quarter',
  per_year: 'per year',
  per_life: 'in total',
};

/**
 * The 409 of a posting a limit refuses, naming the limit and its value (`used`: what the period already counts, null
 * for a limit of one operation).
 */
export function limitExceeded(limit: LimitRow, scale: number, asked: Money, used: Money | number | null): ApiError {
  const period = PERIOD_WORDS[limit.time_unit];
  if (limit.qualifier === 'quantity') {
    const count = new Money(limit.value).toFixed(0);
    return new ApiError(
      'exception.limit.exceeded',
      `The limit of ${count} operation${count === '1' ? '' : 's'} ${period} is reached (${String(used)} made)`,
    );
  }
  const money = (m: Money | string) => `${new Money(m).toFixed(scale)} ${limit.code}`;
  return new ApiError(
    'exception.limit.exceeded',
    used === null
      ? `The limit of ${money(limit.value)} ${period} is exceeded: ${money(asked)} asked`
      : `The limit of ${money(limit.value)} ${period} is exceeded: ${money(used as Money)} used, ${money(asked)} asked`,
  );
}

/**
 * The start of a limit's period in force at `now`, UTC, as text in the shape PostgreSQL answers a `timestamp` in
 * (`2026-11-27 00:00:00`), which `limit_usage.period_start` is keyed by; null for a limit of one operation. Weeks are
 * ISO weeks, from Monday; `per_life` counts from 1970-01-01.
 */
export function periodStart(unit: LimitTimeUnit, now: Date): string | null {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const day = (at: Date) => `${at.toISOString().slice(0, 10)} 00:00:00`;
  switch (unit) {
    case 'per_transaction':
      return null;
    case 'per_day':
      return day(new Date(Date.UTC(y, m, d)));
    case 'per_week':
      return day(new Date(Date.UTC(y, m, d - ((now.getUTCDay() + 6) % 7))));
    case 'per_month':
      return day(new Date(Date.UTC(y, m, 1)));
    case 'per_quarter':
      return day(new Date(Date.UTC(y, m - (m % 3), 1)));
    case 'per_year':
      return day(new Date(Date.UTC(y, 0, 1)));
    case 'per_life':
      return '1970-01-01 00:00:00';
  }
}
