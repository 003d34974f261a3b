import { RequestTiming, timedDb, withRequestTiming } from './request-timing';

describe('timedDb', () => {
  const timing = (): RequestTiming => ({ requestId: 'r-1', dbMs: 0, dbCalls: 0 });

  it('counts a call that answers, and answers its value', async () => {
    const t = timing();
    const value = await withRequestTiming(t, () => timedDb(() => new Promise<string>((resolve) => setTimeout(() => resolve('rows'), 5))));
    expect(value).toBe('rows');
    expect(t.dbCalls).toBe(1);
    expect(t.dbMs).toBeGreaterThan(0);
  });

  it('counts a call that fails, and fails with its error', async () => {
    const t = timing();
    const failure = new Error('connection lost');
    await expect(withRequestTiming(t, () => timedDb(() => Promise.reject(failure)))).rejects.toBe(failure);
    expect(t.dbCalls).toBe(1);
  });

  it('answers a call that throws at once as a failed promise, counted', async () => {
    const t = timing();
    const failure = new Error('bad config');
    let answered: Promise<unknown> | undefined;
    withRequestTiming(t, () => {
      answered = timedDb(() => {
        throw failure;
      });
    });
    await expect(answered).rejects.toBe(failure);
    expect(t.dbCalls).toBe(1);
  });

  it('answers the call’s own promise outside a request, and counts nothing', async () => {
    const pending = Promise.resolve(42);
    expect(timedDb(() => pending)).toBe(pending);
    const failure = new Error('no pool');
    await expect(
      timedDb(() => {
        throw failure;
      }),
    ).rejects.toBe(failure);
  });

  it('adds up calls made at once within one request', async () => {
    const t = timing();
    await withRequestTiming(t, () => Promise.all([timedDb(() => Promise.resolve(1)), timedDb(() => Promise.resolve(2))]));
    expect(t.dbCalls).toBe(2);
  });
});
