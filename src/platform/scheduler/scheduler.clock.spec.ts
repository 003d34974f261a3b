import { loadConfig } from '../config/config';
import { addDays, addMonths, isCalendarDate, utcToday } from './scheduler.clock';

describe('scheduler clock', () => {
  it('adds months on the same day, or the month’s last day, always counted from the date given', () => {
    expect([1, 2, 3, 13].map((m) => addMonths('2030-01-31', m))).toEqual(['2030-02-28', '2030-03-31', '2030-04-30', '2031-02-28']);
    expect(addMonths('2032-01-31', 1)).toBe('2032-02-29');
    expect(addMonths('2030-11-15', 2)).toBe('2031-01-15');
    expect(addMonths('2032-02-29', 12)).toBe('2033-02-28');
  });

  it('adds days across months and years; today is the UTC date', () => {
    expect(addDays('2030-12-30', 3)).toBe('2031-01-02');
    expect(addDays('2030-03-01', -1)).toBe('2030-02-28');
    expect(utcToday(new Date('2030-06-30T23:59:59.999-02:00'))).toBe('2030-07-01');
  });

  it('knows a real calendar date', () => {
    expect(['2030-02-28', '2032-02-29'].every(isCalendarDate)).toBe(true);
    expect(['2030-02-29', '2030-13-01', '2030-1-1', '', 20300101].some(isCalendarDate)).toBe(false);
  });

  it('SCHEDULER_TEST_CLOCK is refused in production; SCHEDULER_POLL_SECONDS is bounded', () => {
    const base = { DATABASE_URL: 'postgres://x@localhost/x', ADMIN_PASSWORD: 'a-long-admin-password-1', AUDIT_CHAIN_KEY: 'k'.repeat(32) };
    expect(loadConfig({ ...base, SCHEDULER_TEST_CLOCK: 'true', NODE_ENV: 'test' }).schedulerTestClock).toBe(true);
    expect(loadConfig(base)).toMatchObject({ schedulerTestClock: false, schedulerPollSeconds: 60 });
    expect(() => loadConfig({ ...base, SCHEDULER_TEST_CLOCK: 'true', NODE_ENV: 'production' })).toThrow(/SCHEDULER_TEST_CLOCK/);
    expect(() => loadConfig({ ...base, SCHEDULER_POLL_SECONDS: '-1' })).toThrow(/SCHEDULER_POLL_SECONDS/);
  });
});
