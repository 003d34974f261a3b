import type { RouteSpec } from '../http/route.decorator';

type RouteError = NonNullable<RouteSpec['errors']>[number];

/** The errors of the routes that take or send a one-time code (log-in, sign-up, recovery, a login change), in `@Route`'s `errors`. */
export const CODE_ERRORS = {
  /** A code presented: one answer for every reason it is refused. */
  wrong: [
    'exception.confirmation_code.not_found',
    'the code is wrong, used, expired, burnt by too many wrong tries, or none was sent (one answer for all)',
  ],
  /** A code asked for. */
  sendLimited: [
    'exception.rate_limited',
    'Retry-After: this address asked a code of this purpose for this login less than ONE_TIME_CODE_RESEND_SECONDS ago, or ONE_TIME_CODES_PER_HOUR for it this hour; or ONE_TIME_CODES_PER_ADDRESS_PER_HOUR codes this hour for any logins; or the login’s codes are stopped after ONE_TIME_CODE_FAILURES_BEFORE_LOCK wrong codes in a row (the same for a login that does not exist)',
  ],
  /** A code presented, before it is compared. */
  checkLimited: [
    'exception.rate_limited',
    'Retry-After, before the code is compared: this address presented ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR wrong codes this hour, for any logins; or the login’s codes of this purpose are stopped after ONE_TIME_CODE_FAILURES_BEFORE_LOCK wrong codes in a row, from any address, until ONE_TIME_CODE_LOCK_SECONDS pass or an administrator releases the user',
  ],
  /** A new password that is one of the user's last ones. */
  reused: ['exception.password.reused', 'one of the last 5 passwords (a code presented stays usable)'],
  /** Failed password checks. */
  checksLimited: ['exception.rate_limited', 'too many failed password checks from this address this minute'],
} as const satisfies Record<string, RouteError>;
