import type { Logger } from '@nestjs/common';
import { logFailure } from './outage';

export interface ClaimLoopOptions<T> {
  logger: Logger;
  /** What it sends, for the log: `webhook`, `message`. */
  what: string;
  /** How often a round runs when nothing wakes it. */
  pollMs: number;
  /** Leases the next batch (empty: nothing due). */
  claim: () => Promise<T[]>;
  /** Sends one claimed item and records its outcome. */
  deliver: (item: T) => Promise<void>;
}

/**
 * The loop of an outbox's dispatcher (webhooks, messages): a round claims and delivers batches until none is due; it
 * runs when woken (after a commit that queued something) and every `pollMs`, one round at a time per instance — a wake
 * during a round runs another right after it. Stopping waits for the round running.
 */
export class ClaimLoop<T> {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(private readonly options: ClaimLoopOptions<T>) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Runs a round now, or right after the one running. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const { logger, what } = this.options;
    this.running = this.rounds()
      .catch((error: unknown) =>
        logFailure(
          logger,
          `the ${what} dispatch`,
          error,
          `${what} dispatch failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        this.running = undefined;
      });
  }

  private async rounds(): Promise<void> {
    do {
      this.again = false;
      for (;;) {
        if (this.stopped) return;
        const claimed = await this.options.claim();
        if (!claimed.length) break;
        await Promise.all(claimed.map((item) => this.options.deliver(item)));
      }
    } while (this.again && !this.stopped);
  }
}
