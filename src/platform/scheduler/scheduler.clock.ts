/** A calendar date, `YYYY-MM-DD`, in UTC: what due dates are. */
export type CalendarDate = string;

export const CALENDAR_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Whether `text` is a real calendar date (not 2026-02-30). */
export function isCalendarDate(text: unknown): text is CalendarDate {
  return typeof text === 'string' && CALENDAR_DATE.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
}

/** Today's date in UTC by the machine's clock. */
export function utcToday(now = new Date()): CalendarDate {
  return now.toISOString().slice(0, 10);
}

/** `date` plus `days` (negative: minus). */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return utcToday(d);
}

/**
 * `date` plus `months`, on the same day of the month, or the month's last day when it has no such day (31 January plus
 * one month is 28 or 29 February; plus two months is 31 March: always counted from `date`, never from the clamped day).
 */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const [year, month, day] = date.split('-').map(Number);
  const index = year * 12 + (month - 1) + months;
  const [y, m] = [Math.floor(index / 12), index % 12];
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return utcToday(new Date(Date.UTC(y, m, Math.min(day, last))));
}
