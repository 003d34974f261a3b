import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import type { Principal } from '../../platform/access/principal';
import { RateLimiter } from '../../platform/access/rate-limiter';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';

/** The 429 of a payee lookup (see PayeeLookups), as a route's `errors` entry. */
export const PAYEE_LOOKUP_LIMIT = [
  'exception.rate_limited',
  'the caller (PAYEE_LOOKUPS_PER_HOUR) or its address (PAYEE_LOOKUPS_PER_ADDRESS_PER_HOUR) has no payee lookup left; Retry-After says when one is back',
] as const;

/** The same 429 for a route still declared with `@ApiTooManyRequestsResponse`. */
export const PAYEE_LOOKUPS_LIMITED = { description: PAYEE_LOOKUP_LIMIT.join(': '), type: ErrorResponseDto };

/** The limit's name in the kernel's rate limiter (its buckets' key). */
const PAYEE_LOOKUP = 'payee_lookup';
/** The payees a user looked up within the hour (a bucket of one per user and payee): looking one up again is free. */
const PAYEE_SEEN = 'payee_seen';

/**
 * Every way a customer learns whose a coin is, or which coin a login or a contact pays into — `POST /coins/validate`,
 * `POST /coins/serial`, `GET /contact-book/contact/{id}/coin`, `POST /templates/transfer` and `POST /transfers/calculate`
 * (whose answers name the payee of a coin typed in) — counts as one payee lookup, against the caller
 * (PAYEE_LOOKUPS_PER_HOUR) and the client address (PAYEE_LOOKUPS_PER_ADDRESS_PER_HOUR, for many accounts on one
 * machine), across every instance (the kernel's RateLimiter: a burst of that many, then refilled over the hour). A
 * payment form makes a few a payment; a walk through the customer directory (40 serials gave 14 names, issue 43) meets
 * a 429 with Retry-After.
 */
@Injectable()
export class PayeeLookups {
  private readonly seenKey = randomBytes(32);

  constructor(
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Counts one lookup of the caller from `address`; a 429 when either has none left this hour. `payee` names what is
   * looked up (`coin:<serial>`, `login:<login>:<currency>`, …): a payee the same user looked up within the hour is not
   * counted again, so a payment form's check and calculation of one payee, or paying the same payees again, cost one
   * lookup each. Only a counted lookup marks its payee seen, so a refused one cannot be repeated for free.
   */
  async count(principal: Pick<Principal, 'userId'>, address: string, payee: string): Promise<void> {
    // Kept as a keyed hash (a card number never reaches the database); the key is this process's, so another instance
    // counts a payee once more — stricter, never looser.
    const seen = { key: `${principal.userId}:${createHmac('sha256', this.seenKey).update(payee).digest('base64url')}`, limit: 1 };
    if (!(await this.limiter.tryTake(PAYEE_SEEN, seen, 3600))) return;
    try {
      await this.countOne(principal, address);
    } catch (error) {
      await this.limiter.giveBack(PAYEE_SEEN, [seen]);
      throw error;
    }
  }

  private async countOne(principal: Pick<Principal, 'userId'>, address: string): Promise<void> {
    await this.limiter.take(
      PAYEE_LOOKUP,
      [
        { key: `user:${principal.userId}`, limit: this.config.payeeLookupsPerHour },
        { key: `address:${address}`, limit: this.config.payeeLookupsPerAddressPerHour },
      ],
      3600,
      'Too many payee lookups; retry later',
    );
  }
}
