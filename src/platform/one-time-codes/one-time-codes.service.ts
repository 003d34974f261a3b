import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../common/api-error';
import { RateLimiter, RateLimitSubject } from '../access/rate-limiter';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { SUPPORT_ORGANIZATION_ID } from '../organizations/organization.types';
import { OutboxService } from '../outbox/outbox.service';
import { UserActionsService } from '../user-actions/user-actions.service';
import { CodeRow, OneTimeCodesRepository } from './one-time-codes.repository';
import { MessagesService } from '../messages/messages.service';
import { CODE_KEY, CodePurpose, NoticeTemplate } from './one-time-codes.types';

const CODE_SPACE = 1_000_000;
const CODE_SHAPE = /^\d{6}$/;
/** A code older than this is not resent (a resend then issues a stand-in, as for an unknown login). */
const RESEND_WINDOW_MS = 24 * 3600 * 1000;
/** The Retry-After of a stop that lasts until an administrator's release: ask again in an hour. */
const UNTIL_RELEASED_RETRY_SECONDS = 3600;

/** The one answer for a code that is wrong, used, expired, burnt, replaced or was never sent: which one is not told. */
export const WRONG_CODE = () => new ApiError('exception.confirmation_code.not_found');

/** A code to issue: for `target` (a login, lower-cased), asked from `address`; a stand-in unless `deliver`. */
export interface CodeRequest {
  purpose: CodePurpose;
  target: string;
  address: string;
  payload?: Record<string, unknown>;
  deliver: boolean;
  /** Another lifetime than ONE_TIME_CODE_TTL_SECONDS. */
  ttlSeconds?: number;
  /** What the message says beside the code, never a secret (a restore code names the login it undoes). */
  details?: Record<string, string>;
  /** The language of the message: the user's `locale`, when the login is a user's (English otherwise). */
  locale?: string | null;
  /**
   * false for a code that only ever follows the use of limited ones (a restore code after a change of login): the
   * login's cooldown and hourly number do not refuse it (it still counts toward them for the codes after it).
   */
  limited?: boolean;
}

/**
 * A code presented for `target` from `address`. `userId`: the user the login is (or the caller, for a change of
 * login), named on the action log when the login's codes stop. A login code is looked up by its challenge
 * (`challengeId`), or, when `byAddress`, as the newest challenge passed at `address`; never by the code alone.
 */
export interface CodeCheck {
  purpose: CodePurpose;
  target: string;
  code: string;
  address: string;
  userId: string | null;
  challengeId?: string;
  byAddress?: boolean;
}

/** What an address's hourly limit counts (in the kernel's rate limiter): codes it asked for, or wrong codes it presented. */
type AddressCount = 'issued' | 'failed';

/**
 * One-time codes (issue 31, hardened in issue 43): 6 digits from a CSPRNG, kept only as an HMAC (keyed, salted with
 * the code's id), compared in constant time, valid ONE_TIME_CODE_TTL_SECONDS, used once; ONE_TIME_CODE_MAX_ATTEMPTS
 * wrong tries burn a code. The code leaves the service only through the CodeSender; the outbox event
 * `one_time_code.issued` says that one was issued, never the code.
 *
 * Limits (issue 43), every one answered `429` with Retry-After:
 * - per login and asking address: a code of one purpose at most every ONE_TIME_CODE_RESEND_SECONDS, at most
 *   ONE_TIME_CODES_PER_HOUR an hour. Counted per address, so no one else can use up the owner's budget; and a new
 *   code replaces only the live codes asked from the same address, so no one else can replace the owner's code;
 * - per address: ONE_TIME_CODES_PER_ADDRESS_PER_HOUR codes sent, ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR wrong codes,
 *   whatever the logins;
 * - per login and purpose: ONE_TIME_CODE_FAILURES_BEFORE_LOCK consecutive wrong codes from any address (NIST 800-63B)
 *   stop its codes, none sent nor checked, for ONE_TIME_CODE_LOCK_SECONDS or until an administrator releases the user.
 *
 * Where no code may be sent (an existing login signing up, an unknown one recovering), callers issue a stand-in: the
 * same row, limits and answer, but delivered to no one and replacing nothing, so neither the answers nor the rate
 * limits tell logins apart.
 */
@Injectable()
export class OneTimeCodesService {
  constructor(
    private readonly codes: OneTimeCodesRepository,
    private readonly uow: UnitOfWork,
    private readonly outbox: OutboxService,
    private readonly actions: UserActionsService,
    private readonly limiter: RateLimiter,
    private readonly messages: MessagesService,
    @Inject(CODE_KEY) private readonly key: Buffer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Issues a code (sent when `deliver`); 429 when a limit of the login, of the asking address, or a stop holds. */
  async issue(request: CodeRequest): Promise<void> {
    await this.store(request, null, null);
  }

  /**
   * The password step of a confirmed login: a login code bound to a new challenge, sent to the login. Answers the
   * challenge's id, a 256-bit secret kept only as a keyed hash, which the confirmation (and a resend) must carry.
   */
  async challenge(target: string, address: string, locale?: string | null): Promise<string> {
    const challengeId = randomBytes(32).toString('base64url');
    await this.store({ purpose: 'login', target, address, deliver: true, locale }, this.challengeHash(challengeId), null);
    return challengeId;
  }

  /** A new code for the login's pending one of this purpose, with its payload; a stand-in when there is none. */
  async resend(purpose: Exclude<CodePurpose, 'login'>, target: string, address: string): Promise<void> {
    await this.uow.run(async () => {
      await this.codes.lockTarget(target);
      const pending = await this.codes.candidate(purpose, target, address);
      const live = pending?.delivered && pending.expires_at.getTime() > Date.now() - RESEND_WINDOW_MS;
      await this.store({ purpose, target, address, payload: live ? pending.payload : {}, deliver: !!live }, null, null);
    });
  }

  /**
   * A new login code for a live challenge, found by its id or (when `byAddress`) as the newest passed at `address`;
   * it keeps the challenge's end, so resending never stretches the window. Without a live challenge, a stand-in: the
   * same answer, nothing sent.
   */
  async resendChallenge(target: string, address: string, challengeId: string | undefined, byAddress: boolean): Promise<void> {
    await this.uow.run(async () => {
      await this.codes.lockTarget(target);
      const pending = challengeId
        ? await this.codes.ofChallenge(target, this.challengeHash(challengeId))
        : byAddress
          ? await this.codes.challengeAt(target, address)
          : undefined;
      const live = pending?.delivered && pending.expires_at.getTime() > Date.now() ? pending : undefined;
      await this.store(
        { purpose: 'login', target, address, payload: live?.payload ?? {}, deliver: !!live },
        live?.challenge_hash ?? null,
        live?.expires_at ?? null,
      );
    });
  }

  /**
   * Uses the login's code when `code` is it, and runs `effect` in the same transaction (an effect that throws leaves
   * the code unused). Before any comparison: 429 while the login's codes of this purpose are stopped, or when the
   * address has presented too many wrong codes this hour. A wrong code counts against the code compared, the
   * address and the login's streak, committed before the refusal (the same 400 whatever was wrong).
   */
  async consume<T>(check: CodeCheck, effect: (payload: Record<string, unknown>) => Promise<T>): Promise<T> {
    const outcome = await this.uow.run(async () => {
      const row = await this.checked(check);
      if (!row) return undefined;
      await this.codes.use(row.id);
      await this.codes.endStreak(check.target, check.purpose);
      return { value: await effect(row.payload) };
    });
    if (!outcome) throw WRONG_CODE();
    return outcome.value;
  }

  /**
   * In the caller's transaction: the login locked, a stop refused, a slot of the address taken, and the code compared —
   * its row when it matches (the slot given back), else the failure counted on the code and the login's streak.
   */
  private async checked(check: CodeCheck): Promise<CodeRow | undefined> {
    const { purpose, target, address } = check;
    await this.codes.lockTarget(target);
    await this.refuseWhileStopped(target, purpose);
    await this.takeAddressSlot(address, 'failed');
    const row = await this.compared(check);
    if (row && this.matches(row, check.code)) {
      await this.limiter.giveBack('one_time_code_failures', [this.addressSubject(address, 'failed')]);
      return row;
    }
    if (row) await this.codes.countFailure(row.id, this.config.oneTimeCodeMaxAttempts);
    // A login code guessed without its challenge can never match: it counts against the address only, so no one
    // without the password can stop the owner's login confirmation.
    if (purpose !== 'login' || row) await this.countStreak(check);
    return undefined;
  }

  /**
   * A hold, a deactivation or a release: every live code sent to the login, and the user's pending changes of login,
   * are burnt, so none asked before can undo it. Answers how many.
   */
  revoke(target: string, userId: string): Promise<number> {
    return this.codes.revoke(target, userId);
  }

  /** The purposes whose codes are stopped for the login now (too many wrong codes in a row). */
  async stoppedPurposes(target: string): Promise<CodePurpose[]> {
    const locks = await this.codes.locks(target);
    return locks.filter((l) => this.remaining(l.since) !== undefined).map((l) => l.purpose);
  }

  /** An administrator's release: the login's stops and streaks end. */
  async release(target: string): Promise<void> {
    await this.codes.release(target);
  }

  private async store(request: CodeRequest, challengeHash: Buffer | null, expiresAt: Date | null): Promise<void> {
    const { purpose, target, address, deliver } = request;
    await this.uow.run(async () => {
      await this.codes.lockTarget(target);
      await this.refuseWhileStopped(target, purpose);
      const { since, lastHour } = await this.codes.recent(purpose, target, address);
      const cooldown = this.config.oneTimeCodeResendSeconds;
      if (request.limited !== false && since !== null && since < cooldown) {
        throw ApiError.tooManyRequests('A code was sent to this login moments ago; wait before asking again', Math.ceil(cooldown - since));
      }
      if (request.limited !== false && lastHour >= this.config.oneTimeCodesPerHour) {
        throw ApiError.tooManyRequests('Too many codes for this login this hour; retry later', 3600);
      }
      await this.takeAddressSlot(address, 'issued');
      const id = randomUUID();
      const code = String(randomInt(CODE_SPACE)).padStart(6, '0');
      const sentUntil = await this.codes.insert({
        id,
        purpose,
        target,
        codeHash: this.hashOf(id, code),
        payload: request.payload ?? {},
        delivered: deliver,
        address,
        challengeHash,
        expiresAt,
        ttlSeconds: request.ttlSeconds ?? this.config.oneTimeCodeTtlSeconds,
      });
      if (!deliver) return;
      await this.outbox.emit('one_time_code.issued', [SUPPORT_ORGANIZATION_ID], {
        id,
        purpose,
        to: target,
        expiresAt: sentUntil.toISOString(),
      });
      // Sent by the messages outbox after the commit: no request waits for a gateway, and a rolled-back code is never sent.
      await this.messages.queueCode({
        codeId: id,
        purpose,
        to: target,
        code,
        expiresAt: sentUntil,
        details: request.details,
        locale: request.locale ?? undefined,
      });
    });
  }

  /** The one code a guess is compared with: a login code only through its challenge, any other as `candidate` picks. */
  private async compared(check: CodeCheck): Promise<CodeRow | undefined> {
    if (check.purpose !== 'login') return this.codes.candidate(check.purpose, check.target, check.address);
    if (check.challengeId) return this.codes.ofChallenge(check.target, this.challengeHash(check.challengeId));
    return check.byAddress ? this.codes.challengeAt(check.target, check.address) : undefined;
  }

  /** 429 while the login's codes of this purpose are stopped: the same for a login that exists and one that does not. */
  private async refuseWhileStopped(target: string, purpose: CodePurpose): Promise<void> {
    const since = await this.codes.lockedSince(target, purpose);
    const remaining = since === undefined ? undefined : this.remaining(since);
    if (remaining !== undefined) {
      throw ApiError.tooManyRequests('Too many wrong codes for this login; its codes have stopped for a while', remaining);
    }
  }

  /** Seconds a stop made `since` seconds ago still lasts (until a release: an hour, to ask again), or undefined when over. */
  private remaining(since: number): number | undefined {
    const lasts = this.config.oneTimeCodeLockSeconds;
    if (lasts === 0) return UNTIL_RELEASED_RETRY_SECONDS;
    return since < lasts ? Math.max(1, Math.ceil(lasts - since)) : undefined;
  }

  /** The address as the rate limiter counts it for `kind`, with its limit an hour. */
  private addressSubject(address: string, kind: AddressCount): RateLimitSubject {
    const limit = kind === 'issued' ? this.config.oneTimeCodesPerAddressPerHour : this.config.oneTimeCodeFailuresPerAddressPerHour;
    return { key: `address:${address}`, limit };
  }

  /** One hit of the address's hourly limit of `kind` (a token bucket refilled over the hour), or a 429. */
  private async takeAddressSlot(address: string, kind: AddressCount): Promise<void> {
    await this.limiter.take(
      kind === 'issued' ? 'one_time_codes_asked' : 'one_time_code_failures',
      [this.addressSubject(address, kind)],
      3600,
      kind === 'issued'
        ? 'Too many codes asked from this address this hour; retry later'
        : 'Too many wrong codes from this address this hour; retry later',
    );
  }

  /** A wrong code in the login's streak; the one reaching the limit stops its codes, on the record. */
  private async countStreak(check: CodeCheck): Promise<void> {
    const limit = this.config.oneTimeCodeFailuresBeforeLock;
    if (!(await this.codes.countStreak(check.target, check.purpose, limit))) return;
    await this.actions.record({
      userId: check.userId,
      action: 'one_time_codes_locked',
      login: check.target,
      address: check.address,
      details: {
        purpose: check.purpose,
        failures: limit,
        ...(this.config.oneTimeCodeLockSeconds ? { lockSeconds: this.config.oneTimeCodeLockSeconds } : { untilReleased: true }),
      },
    });
  }

  /**
   * Whether the code is the login's code of this purpose, without using it. The same limits and counts as `consume`:
   * 429 while the login's codes are stopped or the address has presented too many wrong codes; a wrong code counts
   * against the code compared, the address and the login's streak, committed at once. For a step that needs two codes:
   * check both, then consume both in one transaction (a wrong code counted inside a transaction that is then undone
   * would not count). Call it outside a transaction.
   */
  async verify(check: CodeCheck): Promise<boolean> {
    return this.uow.run(async () => (await this.checked(check)) !== undefined);
  }

  /** The payload of the login's newest live code of this purpose (sent, not used, burnt, replaced nor expired), if any. */
  async pending(purpose: CodePurpose, target: string): Promise<Record<string, unknown> | undefined> {
    return this.uow.run(async () => {
      const row = await this.codes.newestLive(purpose, target);
      return row?.delivered && row.expires_at.getTime() > Date.now() ? row.payload : undefined;
    });
  }

  /**
   * Sends a notice — a message without a secret — to `to` through the messages outbox: written in the open
   * transaction, sent once it commits (never after a rollback).
   */
  async notify(to: string, template: NoticeTemplate, details: Record<string, string>): Promise<void> {
    await this.messages.queueNotice(to, template, details);
  }

  /** Constant-time; an expired code, a stand-in or a malformed guess never matches (but is compared all the same). */
  private matches(row: CodeRow, code: string): boolean {
    const equal = timingSafeEqual(row.code_hash, this.hashOf(row.id, code));
    return equal && CODE_SHAPE.test(code) && row.delivered && row.expires_at.getTime() > Date.now();
  }

  private hashOf(id: string, code: string): Buffer {
    return createHmac('sha256', this.key).update(`${id}:${code}`).digest();
  }

  private challengeHash(challengeId: string): Buffer {
    return createHmac('sha256', this.key).update(`challenge:${challengeId}`).digest();
  }
}
