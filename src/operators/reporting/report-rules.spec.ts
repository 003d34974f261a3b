import { ApiError } from '../../platform/common/api-error';
import { Money } from '../../platform/common/money';
import { exactAmountText, percentOf, reportRange, roundedToMinorUnit } from './report-rules';

const NOW = new Date('2026-03-15T10:20:30.456Z');

function rangeError(from: string | undefined, to: string | undefined, maxDays?: number): ApiError {
  try {
    reportRange(from, to, NOW, maxDays);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a 400');
}

describe('report ranges', () => {
  it('defaults to the last 30 UTC days, today included, ending now', () => {
    const range = reportRange(undefined, undefined, NOW);
    expect(range.fromDate.toISOString()).toBe('2026-02-14T00:00:00.000Z');
    expect(range.toDate.toISOString()).toBe(NOW.toISOString());
  });

  it('counts the 30 days back from a given end; an end at midnight closes the day before', () => {
    expect(reportRange(undefined, '2026-03-01T12:00:00Z', NOW).fromDate.toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(reportRange(undefined, '2026-03-01T00:00:00Z', NOW).fromDate.toISOString()).toBe('2026-01-30T00:00:00.000Z');
  });

  it('reads a plain date as `to` as the last day of the range, included (the client sends the last day of a month)', () => {
    const range = reportRange('2026-02-01', '2026-02-28', NOW);
    expect([range.from, range.to]).toEqual(['2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z']);
    expect(range.toDate.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    // One day: from and to the same date.
    expect(reportRange('2026-02-28', '2026-02-28', NOW).toDate.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(reportRange(undefined, '2026-03-01', NOW).fromDate.toISOString()).toBe('2026-01-31T00:00:00.000Z');
  });

  it('keeps what the client sent for SQL (to the microsecond) and reads a plain date as midnight UTC', () => {
    const range = reportRange('2026-01-01', '2026-01-02T00:00:00.000001+02:00', NOW);
    expect(range.from).toBe('2026-01-01T00:00:00Z');
    expect(range.to).toBe('2026-01-02T00:00:00.000001+02:00');
    expect(range.toDate.toISOString()).toBe('2026-01-01T22:00:00.000Z');
  });

  it('refuses an end not after the start, naming to', () => {
    for (const [from, to] of [
      ['2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z'],
      ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      ['2026-01-01T02:00:00+02:00', '2026-01-01T00:00:00Z'],
      ['2026-04-01T00:00:00Z', undefined],
    ] as const) {
      const error = rangeError(from, to);
      expect({ from, to, status: error.status, parameter: error.errors[0].parameter }).toEqual({ from, to, status: 400, parameter: 'to' });
    }
  });

  it('limits the length of a range when asked', () => {
    expect(reportRange('2025-01-01', '2026-01-01', NOW, 366).fromDate.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    const error = rangeError('2025-01-01', '2026-01-02T00:00:00.001Z', 366);
    expect(error.message).toBe('to must be at most 366 days after from');
  });
});

describe('shares and rounding', () => {
  it('answers a share as an exact percentage rounded half-even to two decimals', () => {
    expect(percentOf(new Money('1'), new Money('3')).toFixed(2)).toBe('33.33');
    expect(percentOf(new Money('2'), new Money('3')).toFixed(2)).toBe('66.67');
    expect(percentOf(new Money('1'), new Money('8')).toFixed(2)).toBe('12.50');
    // 0.125 % and 0.375 % are ties at two decimals: each goes to the even neighbour.
    expect(percentOf(new Money('0.00125'), new Money('1')).toFixed(2)).toBe('0.12');
    expect(percentOf(new Money('0.00375'), new Money('1')).toFixed(2)).toBe('0.38');
    expect(percentOf(new Money('5'), new Money('5')).toFixed(2)).toBe('100.00');
  });

  it('decides a tie exactly at 10^18 fractions, where a float could not', () => {
    const total = new Money('1000000000000000000.000000000000000001');
    expect(percentOf(new Money('0.000000000000000001'), total).toFixed(2)).toBe('0.00');
    expect(percentOf(new Money('999999999999999999.999999999999999999'), total).toFixed(2)).toBe('100.00');
    // An exact tie goes to even; one unit of the 18th decimal above it rounds up, which only exact arithmetic sees.
    expect(percentOf(new Money('1250000000000000'), new Money('1000000000000000000')).toFixed(2)).toBe('0.12');
    expect(percentOf(new Money('1250000000000000.000000000000000001'), new Money('1000000000000000000')).toFixed(2)).toBe('0.13');
    expect(percentOf(new Money('1'), new Money('799.999999999999999999')).toFixed(2)).toBe('0.13');
    expect(percentOf(new Money('1'), new Money('800.000000000000000001')).toFixed(2)).toBe('0.12');
  });

  it('gives 0 for every coin of a zero total', () => {
    expect(percentOf(new Money('0'), new Money('0')).toFixed(2)).toBe('0.00');
  });

  it('rounds a total half-even to the minor unit of its currency, not to whole units', () => {
    const cents = (v: string) => roundedToMinorUnit(new Money(v), 2).toFixed(2);
    expect(['277.66', '281.088', '0.125', '0.375', '0.1250000000000000001', '-2.675', '0'].map(cents)).toEqual([
      '277.66',
      '281.09',
      '0.12',
      '0.38',
      '0.13',
      '-2.68',
      '0.00',
    ]);
    // A currency without decimals rounds to whole units; one of 18 decimals keeps them all.
    expect(['2.5', '3.5', '12345678901234567890.5'].map((v) => roundedToMinorUnit(new Money(v), 0).toFixed(0))).toEqual([
      '2',
      '4',
      '12345678901234567890',
    ]);
    expect(roundedToMinorUnit(new Money('0.000000000000000001'), 18).toFixed(18)).toBe('0.000000000000000001');
  });

  it('writes an exact amount with the currency’s decimals at least and every decimal a conversion brought', () => {
    expect(exactAmountText(new Money('277.66'), 2)).toBe('277.66');
    expect(exactAmountText(new Money('40'), 2)).toBe('40.00');
    expect(exactAmountText(new Money('40.00').times('1.0857'), 2)).toBe('43.428');
    expect(exactAmountText(new Money('237.66').times('0.913700000000000000'), 2)).toBe('217.149942');
    expect(exactAmountText(new Money('12345678901234567890.123456789012345678').times('98765432109876543210.987654321098765432'), 2)).toBe(
      '1219326311370217952261850327338667885854.747751864349946654322511812221002896',
    );
  });
});
