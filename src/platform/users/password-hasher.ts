import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { compare, hash } from 'bcrypt';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { ConcurrencyGate } from '../common/concurrency-gate';
import { APP_CONFIG, AppConfig, PASSWORD_MAX_BYTES } from '../config/config';

/**
 * How many bcrypt operations may run at once: one per CPU, and never more than libuv's threadpool.
 * More than one per CPU adds no throughput (bcrypt is pure CPU) but takes CPU time from the event
 * loop, so every other request waits longer while logins run (measured by `npm run bench`: on
 * 2 CPUs the p99 of profile reads under login load fell from 5.1x to 1.2x the idle p99),
 * and it leaves no threadpool thread for DNS lookups or file reads.
 */
export function bcryptConcurrency(): number {
  const threadpool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(availableParallelism(), threadpool));
}

/** bcrypt at the configured cost; its async API keeps hashing off the event loop. */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private dummyHash = '';
  private readonly gate = new ConcurrencyGate(bcryptConcurrency());

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** How long one comparison takes at the configured cost, measured at start. */
  comparisonMs = 0;

  async onModuleInit(): Promise<void> {
    // Compared against when a login is unknown, so unknown and known logins take the same time.
    this.dummyHash = await this.hash(randomBytes(16).toString('hex'));
    const started = performance.now();
    await this.verify(randomBytes(16).toString('hex'), undefined);
    this.comparisonMs = performance.now() - started;
  }

  hash(password: string): Promise<string> {
    return this.gate.run(() => hash(password, this.config.bcryptCost));
  }

  /**
   * Whether the password matches. bcrypt reads only the first 72 bytes, so a longer password never
   * matches (it is compared against the dummy hash, taking the same time) instead of being cut.
   */
  verify(password: string, passwordHash: string | undefined): Promise<boolean> {
    const usable = passwordHash !== undefined && Buffer.byteLength(password, 'utf8') <= PASSWORD_MAX_BYTES;
    return this.gate.run(() => compare(password, usable ? passwordHash : this.dummyHash)).then((ok) => ok && usable);
  }

  /** A temporary password for a released user: 96 random bits, easy to type. */
  temporaryPassword(): string {
    return randomBytes(12).toString('base64url');
  }
}
