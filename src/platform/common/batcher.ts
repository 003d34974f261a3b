import { AsyncResource } from 'node:async_hooks';

/** What one item of a batch came to: its own value or its own error. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface BatcherLimits {
  /** Items in one batch at most. */
  size: number;
  /** Batches running at once at most; items arriving while they run wait and form the next batch. */
  inFlight: number;
}

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Groups items that arrive while earlier ones are being worked on (group commit). An item arriving while
 * fewer than `inFlight` batches run starts a batch at once, alone — no timer, so a lone item waits for
 * nothing; under load the items queued behind the running batches go together in the next one, so batches
 * grow with the load. Batches take items in arrival order.
 *
 * `work` answers one outcome per item, in the items' order; each item's promise settles with its own. Should
 * `work` itself fail, every item of the batch fails with that error.
 *
 * Batches run in the async context of the Batcher's creation, not of the item that happened to start one, so
 * per-request context (timing, log ids, an open transaction) never leaks from one item to a whole batch.
 */
export class Batcher<T, R> {
  private readonly queue: Waiting<T, R>[] = [];
  private running = 0;
  private readonly start: (batch: Waiting<T, R>[]) => void;

  constructor(
    private readonly work: (items: T[]) => Promise<Outcome<R>[]>,
    private readonly limits: BatcherLimits,
  ) {
    this.start = AsyncResource.bind((batch: Waiting<T, R>[]) => void this.run(batch));
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.drain();
    });
  }

  /** Batches running now. */
  get inFlight(): number {
    return this.running;
  }

  private drain(): void {
    while (this.running < this.limits.inFlight && this.queue.length) {
      this.running++;
      this.start(this.queue.splice(0, this.limits.size));
    }
  }

  private async run(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const outcomes = await this.work(batch.map((w) => w.item));
      if (outcomes.length !== batch.length) throw new Error(`A batch of ${batch.length} answered ${outcomes.length} outcomes`);
      batch.forEach((waiting, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) waiting.resolve(outcome.value);
        else waiting.reject(outcome.error);
      });
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.running--;
      this.drain();
    }
  }
}
