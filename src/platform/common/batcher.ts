import { AsyncResource } from 'node:async_hooks';

/** What one item of a batch came to: its own value or its own error. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface BatcherLimits<T> {
  /** Items in one batch at most. */
  size: number;
  /** Batches running at once at most; items arriving while they run wait and form the next batch. */
  inFlight: number;
  /**
   * What an item needs to itself while its batch runs (a posting's coins): an item sharing one with a running batch
   * is not taken by another batch — it waits, in its place, for a batch after that one. Without: any item goes.
   */
  claims?: (item: T) => readonly string[];
}

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Groups items that arrive while earlier ones are being worked on (group commit). While fewer than `inFlight`
 * batches run, the items submitted in one event-loop turn start a batch at the end of that turn (setImmediate) —
 * no timer, so a lone item waits for nothing; under load the items queued behind the running batches go together
 * in the next one, so batches grow with the load — while one runs, the next starts once half as many items wait as it
 * took (`enough`), so batches stay of a size instead of alternating between one and many. Batches take items in arrival
 * order.
 *
 * `work` answers one outcome per item, in the items' order; each item's promise settles with its own. Should
 * `work` itself fail, every item of the batch fails with that error.
 *
 * Batches run in the async context of the Batcher's creation, not of the item that happened to start one, so
 * per-request context (timing, log ids, an open transaction) never leaks from one item to a whole batch.
 */
export class Batcher<T, R> {
  private queue: Waiting<T, R>[] = [];
  /** The sizes of the running batches. */
  private readonly running: number[] = [];
  /** The claims of the running batches, counted. */
  private readonly claimed = new Map<string, number>();
  private readonly start: (batch: Waiting<T, R>[]) => void;
  private readonly kick: () => void;
  private draining = false;

  constructor(
    private readonly work: (items: T[]) => Promise<Outcome<R>[]>,
    private readonly limits: BatcherLimits<T>,
  ) {
    this.start = AsyncResource.bind((batch: Waiting<T, R>[]) => void this.run(batch));
    this.kick = AsyncResource.bind(() =>
      setImmediate(() => {
        this.draining = false;
        this.drain();
      }),
    );
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.scheduleDrain();
    });
  }

  /**
   * Batches start once the event loop has run what it has at hand (setImmediate: after the current I/O phase, no
   * timer), so the items of requests read in one turn go together rather than each in a batch of its own.
   */
  private scheduleDrain(): void {
    if (this.draining) return;
    this.draining = true;
    this.kick();
  }

  /** Batches running now. */
  get inFlight(): number {
    return this.running.length;
  }

  /** Items submitted and not yet taken by a batch. */
  get waiting(): number {
    return this.queue.length;
  }

  private drain(): void {
    while (this.running.length < this.limits.inFlight && this.queue.length >= this.enough()) {
      const batch = this.take();
      if (!batch.length) return;
      this.running.push(batch.length);
      this.start(batch);
    }
  }

  /**
   * How many items must wait for a batch to start: one when none runs; while batches run, half as many as the smallest
   * of them took (or of `size`). A batch that finishes frees its slot to the items that arrived meanwhile — often a few,
   * in the event-loop turn after — and a batch of those few costs what a full one costs (its transaction, its round
   * trips), while the items behind them wait for the other. Held back until half as many wait, no batch is less than
   * half the size of the one beside it, instead of alternating between one and many; a half, not a whole, so that the
   * items arriving behind a large batch wait for it less. Never a timer: the items wait at most for a running batch to
   * end, and with none running a lone item starts at once.
   */
  private enough(): number {
    if (!this.running.length) return 1;
    return Math.ceil(Math.min(this.limits.size, ...this.running) / 2);
  }

  /** The next batch: the first `size` waiting items that claim nothing a running batch claims. */
  private take(): Waiting<T, R>[] {
    const { claims, size } = this.limits;
    if (!claims || this.running.length === 0) return this.hold(this.queue.splice(0, size));
    const batch: Waiting<T, R>[] = [];
    const rest: Waiting<T, R>[] = [];
    for (const waiting of this.queue) {
      if (batch.length < size && !claims(waiting.item).some((c) => this.claimed.has(c))) batch.push(waiting);
      else rest.push(waiting);
    }
    this.queue = rest;
    return this.hold(batch);
  }

  private hold(batch: Waiting<T, R>[]): Waiting<T, R>[] {
    this.count(batch, 1);
    return batch;
  }

  private count(batch: Waiting<T, R>[], by: 1 | -1): void {
    const { claims } = this.limits;
    if (!claims) return;
    for (const { item } of batch) {
      for (const claim of claims(item)) {
        const n = (this.claimed.get(claim) ?? 0) + by;
        if (n) this.claimed.set(claim, n);
        else this.claimed.delete(claim);
      }
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
      this.running.splice(this.running.indexOf(batch.length), 1);
      this.count(batch, -1);
      this.drain();
    }
  }
}
