import { PeriodicTask } from './periodic-task';

/** A run the test finishes by hand. */
function gate(): { promise: Promise<void>; open: () => void; fail: (error: Error) => void } {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe('PeriodicTask', () => {
  it('runs one at a time: a run asked for while one is going joins it', async () => {
    const runs: ReturnType<typeof gate>[] = [];
    const task = new PeriodicTask(
      'The sweep',
      () => {
        runs.push(gate());
        return runs[runs.length - 1].promise;
      },
      { error: () => undefined },
    );
    const first = task.run();
    const second = task.run();
    expect(runs).toHaveLength(1);
    runs[0].open();
    await Promise.all([first, second]);
    const third = task.run();
    expect(runs).toHaveLength(2);
    runs[1].open();
    await third;
  });

  it('logs a failed run with its name instead of throwing, and runs again afterwards', async () => {
    const errors: string[] = [];
    let calls = 0;
    const task = new PeriodicTask(
      'The sweep',
      async () => {
        calls++;
        if (calls === 1) throw new Error('database gone');
      },
      { error: (message) => errors.push(message) },
    );
    await expect(task.run()).resolves.toBeUndefined();
    await task.run();
    expect(errors).toEqual(['The sweep failed: database gone']);
    expect(calls).toBe(2);
  });

  it('stop() waits for the run in flight and no run starts after it', async () => {
    const run = gate();
    let calls = 0;
    const task = new PeriodicTask(
      'The sweep',
      () => {
        calls++;
        return run.promise;
      },
      { error: () => undefined },
    );
    void task.run();
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    run.open();
    await stopping;
    expect(stopped).toBe(true);
    await task.run();
    task.start(1);
    expect(calls).toBe(1);
  });

  it('runs on its timer every given number of seconds, and never with 0', async () => {
    jest.useFakeTimers();
    try {
      let calls = 0;
      const never = new PeriodicTask('Never', async () => void calls++, { error: () => undefined });
      never.start(0);
      const task = new PeriodicTask('The sweep', async () => void calls++, { error: () => undefined });
      task.start(2);
      await jest.advanceTimersByTimeAsync(1999);
      expect(calls).toBe(0);
      await jest.advanceTimersByTimeAsync(1);
      expect(calls).toBe(1);
      await jest.advanceTimersByTimeAsync(4000);
      expect(calls).toBe(3);
      await task.stop();
      await jest.advanceTimersByTimeAsync(10_000);
      expect(calls).toBe(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
