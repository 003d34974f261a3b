import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { RateLimitsRepository } from './rate-limits.repository';

/** One subject of a limit — a user, a client address (`user:<id>`, `address:<ip>`) — and its hits per window. */
export interface RateLimitSubject {
  key: string;
  limit: number;
}

/**
 * The kernel's per-caller rate limiter: a token bucket per limit and subject, holding at most `limit` hits, full at
 * first and refilled at `limit` per `windowSeconds` (60 an hour: a burst of 60, then one a minute). Kept in PostgreSQL
 * (`rate_limit_buckets`), so a limit holds across every instance behind a load balancer and through restarts: in
 * memory, N instances would allow N times the limit. A hit with none left is a `429 exception.rate_limited` in the
 * error shape, `Retry-After` the seconds until one is back.
 *
 * Use it before the work it protects, with the subjects in order:
 * `await limiter.take('payee_lookup', [{ key: `user:${id}`, limit: 60 }, { key: `address:${ip}`, limit: 600 }], 3600, '…')`.
 * A hit the first subject refuses is not counted against the next; one the next refuses was counted against the first.
 * Windows are 1 s to a day. One-time codes count the codes an address asks and the wrong ones it presents here too.
 * The login limit (LOGIN_FAILURES_PER_MINUTE) predates it and counts failures only, with their own table.
 */
@Injectable()
export class RateLimiter {
  constructor(private readonly limits: RateLimitsRepository) {}

  async take(name: string, subjects: RateLimitSubject[], windowSeconds: number, message: string): Promise<void> {
    if (!(windowSeconds >= 1 && windowSeconds <= 86_400)) throw new Error(`A rate limit's window is 1 s to a day, not ${windowSeconds} s`);
    for (const subject of subjects) {
      const { taken, retryAfterSeconds } = await this.limits.take(name, subject.key, subject.limit, windowSeconds);
      if (!taken) throw ApiError.tooManyRequests(message, retryAfterSeconds);
    }
  }

  /** One hit of `subject` if it has one left (true), else nothing (false): for a limit that decides, not refuses. */
  async tryTake(name: string, subject: RateLimitSubject, windowSeconds: number): Promise<boolean> {
    return (await this.limits.take(name, subject.key, subject.limit, windowSeconds)).taken;
  }

  /**
   * Gives a hit taken by `take` back to each subject: the work turned out not to be what the limit counts (a right
   * one-time code, where only wrong ones count). Taken and given back in one transaction, the two cancel out.
   */
  async giveBack(name: string, subjects: RateLimitSubject[]): Promise<void> {
    for (const subject of subjects) await this.limits.giveBack(name, subject.key, subject.limit);
  }
}
