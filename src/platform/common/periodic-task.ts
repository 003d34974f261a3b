import { logFailure } from './outage';

/**
 * Background work an instance repeats (sweeps, reconciliation): one run at a time — a tick that finds a run going
 * is skipped —, a failed run logged rather than thrown, and `stop()` that waits for the run in flight, so the
 * services stop it before the database pool it uses is closed (in `onModuleDestroy`).
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    /** Names the work in the log line of a failed run, e.g. "The voucher expiry sweep". */
    private readonly name: string,
    private readonly work: () => Promise<unknown>,
    private readonly logger: { error(message: string): void },
  ) {}

  /** Runs the work every `seconds` (0: never). */
  start(seconds: number): void {
    if (seconds > 0 && !this.stopped) this.timer = setInterval(() => void this.run(), seconds * 1000).unref();
  }

  /** Runs the work now, unless a run is going (then that run's end is awaited) or the task is stopped. */
  run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.work()
      .then(
        () => undefined,
        (error: unknown) => {
          logFailure(this.logger, this.name, error, `${this.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** No more runs; resolves once the run in flight has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}
