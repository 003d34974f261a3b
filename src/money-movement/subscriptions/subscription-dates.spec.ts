import { dueDateOf } from './subscription-dates';

describe('subscription due dates', () => {
  it('are the start date plus frequency × the period, counted from the start', () => {
    const dates = (period: Parameters<typeof dueDateOf>[1], frequency: number) =>
      [0, 1, 2, 3].map((k) => dueDateOf('2030-01-31', period, frequency, k));
    expect(dates('DAILY', 1)).toEqual(['2030-01-31', '2030-02-01', '2030-02-02', '2030-02-03']);
    expect(dates('WEEKLY', 2)).toEqual(['2030-01-31', '2030-02-14', '2030-02-28', '2030-03-14']);
    expect(dates('MONTHLY', 1)).toEqual(['2030-01-31', '2030-02-28', '2030-03-31', '2030-04-30']);
    expect(dates('ANNUALLY', 1)).toEqual(['2030-01-31', '2031-01-31', '2032-01-31', '2033-01-31']);
  });
});
