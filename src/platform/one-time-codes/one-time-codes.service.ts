import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { SUPPORT_ORGANIZATION_ID } from '../organizations/organization.types';
import { OutboxService } from '../outbox/outbox.service';
import { CodeRow, OneTimeCodesRepository } from './one-time-codes.repository';
import { CODE_KEY, CODE_SENDER, CodePurpose, CodeSender, NoticeTemplate } from './one-time-codes.types';

const CODE_SPACE = 1_000_000;
const CODE_SHAPE = /^\d{6}$/;
/** A code older than this is not resent (a resend then issues a stand-in, as for an unknown login). */
const RESEND_WINDOW_MS = 24 * 3600 * 1000;

/** The one answer for a code that is wrong, used, expired, burnt, replaced or was never sent: which one is not told. */
export const WRONG_CODE = () => new ApiError('exception.confirmation_code.not_found');

/**
 * One-time codes (issue 31): 6 digits from a CSPRNG, kept only as an HMAC (keyed, salted with the code's id),
 * compared in constant time, valid ONE_TIME_CODE_TTL_SECONDS, used once; ONE_TIME_CODE_MAX_ATTEMPTS wrong tries burn
 * a code. A login gets a code of one purpose at most every ONE_TIME_CODE_RESEND_SECONDS, and at most ONE_TIME_CODES_PER_HOUR
 * codes an hour whatever their purpose;
 * a new code replaces the login's live one of that purpose. The code leaves the service only through the CodeSender;
 * the outbox event `one_time_code.issued` says that one was issued, never the code.
 *
 * Where no code may be sent (an existing login signing up, an unknown one recovering), callers issue a stand-in: the
 * same row, limits and answer, but delivered to no one, so neither the answers nor the rate limits tell logins apart.
 */
@Injectable()
export class OneTimeCodesService {
  private readonly logger = new Logger('OneTimeCodes');

  constructor(
    private readonly codes: OneTimeCodesRepository,
    private readonly uow: UnitOfWork,
    private readonly outbox: OutboxService,
    @Inject(CODE_SENDER) private readonly sender: CodeSender,
    @Inject(CODE_KEY) private readonly key: Buffer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Issues a code for `target` (sent when `deliver`); 429 when the login had one too recently or too many this hour.
   * `options`: another lifetime than ONE_TIME_CODE_TTL_SECONDS, the message's `details` (never a secret), and
   * `limited: false` for a code that only ever follows the use of limited ones (a restore code after a change of
   * login), which the limits do not refuse (it still counts toward the login's hourly number for the codes after it).
   */
  async issue(
    purpose: CodePurpose,
    target: string,
    payload: Record<string, unknown>,
    deliver: boolean,
    options: { ttlSeconds?: number; details?: Record<string, string>; limited?: boolean } = {},
  ): Promise<void> {
    await this.uow.run(async () => {
      await this.codes.lockTarget(target);
      const { since, lastHour } = await this.codes.recent(purpose, target);
      const cooldown = this.config.oneTimeCodeResendSeconds;
      if (options.limited !== false && since !== null && since < cooldown) {
        throw ApiError.tooManyRequests('A code was sent to this login moments ago; wait before asking again', Math.ceil(cooldown - since));
      }
      if (options.limited !== false && lastHour >= this.config.oneTimeCodesPerHour) {
        throw ApiError.tooManyRequests('Too many codes for this login this hour; retry later', 3600);
      }
      const id = randomUUID();
      const code = String(randomInt(CODE_SPACE)).padStart(6, '0');
      const expiresAt = await this.codes.insert({
        id,
        purpose,
        target,
        codeHash: this.hashOf(id, code),
        payload,
        delivered: deliver,
        ttlSeconds: options.ttlSeconds ?? this.config.oneTimeCodeTtlSeconds,
      });
      if (!deliver) return;
      await this.outbox.emit('one_time_code.issued', [SUPPORT_ORGANIZATION_ID], {
        id,
        purpose,
        to: target,
        expiresAt: expiresAt.toISOString(),
      });
      this.uow.afterCommit(() =>
        this.sender.send({ kind: 'code', purpose, to: target, code, expiresAt, details: options.details }).catch((error: unknown) => {
          this.logger.error(`Could not deliver a ${purpose} code (${error instanceof Error ? error.message : String(error)})`);
        }),
      );
    });
  }

  /** A new code for the login's pending one of this purpose, with its payload; a stand-in when there is none. */
  async resend(purpose: CodePurpose, target: string): Promise<void> {
    await this.uow.run(async () => {
      await this.codes.lockTarget(target);
      const pending = await this.codes.newest(purpose, target);
      const live = pending?.delivered && pending.expires_at.getTime() > Date.now() - RESEND_WINDOW_MS;
      await this.issue(purpose, target, live ? pending.payload : {}, !!live);
    });
  }

  /**
   * Uses the login's live code of this purpose when `code` is it, and runs `effect` in the same transaction (an
   * effect that throws leaves the code unused). A wrong code counts toward burning the live one, and that count is
   * committed before the refusal (the same 400 whatever was wrong).
   */
  async consume<T>(
    purpose: CodePurpose,
    target: string,
    code: string,
    effect: (payload: Record<string, unknown>) => Promise<T>,
  ): Promise<T> {
    const outcome = await this.uow.run(async () => {
      await this.codes.lockTarget(target);
      const row = await this.codes.newest(purpose, target);
      if (!row) return undefined;
      if (!this.matches(row, code)) {
        await this.codes.countFailure(row.id, this.config.oneTimeCodeMaxAttempts);
        return undefined;
      }
      await this.codes.use(row.id);
      return { value: await effect(row.payload) };
    });
    if (!outcome) throw WRONG_CODE();
    return outcome.value;
  }

  /**
   * Whether `code` is the login's live code of this purpose, without using it; a wrong one counts toward burning the
   * live one, committed at once. For a step that needs two codes: check both, then consume both in one transaction
   * (a wrong code counted inside a transaction that is then undone would not count). Call it outside a transaction.
   */
  async verify(purpose: CodePurpose, target: string, code: string): Promise<boolean> {
    return this.uow.run(async () => {
      await this.codes.lockTarget(target);
      const row = await this.codes.newest(purpose, target);
      if (!row) return false;
      if (this.matches(row, code)) return true;
      await this.codes.countFailure(row.id, this.config.oneTimeCodeMaxAttempts);
      return false;
    });
  }

  /** The payload of the login's live code of this purpose (sent, not used, burnt, replaced nor expired), if any. */
  async pending(purpose: CodePurpose, target: string): Promise<Record<string, unknown> | undefined> {
    return this.uow.run(async () => {
      const row = await this.codes.newest(purpose, target);
      return row?.delivered && row.expires_at.getTime() > Date.now() ? row.payload : undefined;
    });
  }

  /**
   * Sends a notice — a message without a secret — to `to` once the open transaction commits (never after a rollback).
   * A failure is logged, never answered.
   */
  notify(to: string, template: NoticeTemplate, details: Record<string, string>): void {
    this.uow.afterCommit(() =>
      this.sender.send({ kind: 'notice', to, template, details }).catch((error: unknown) => {
        this.logger.error(`Could not deliver a ${template} notice (${error instanceof Error ? error.message : String(error)})`);
      }),
    );
  }

  /** Constant-time; an expired code, a stand-in or a malformed guess never matches (but is compared all the same). */
  private matches(row: CodeRow, code: string): boolean {
    const equal = timingSafeEqual(row.code_hash, this.hashOf(row.id, code));
    return equal && CODE_SHAPE.test(code) && row.delivered && row.expires_at.getTime() > Date.now();
  }

  private hashOf(id: string, code: string): Buffer {
    return createHmac('sha256', this.key).update(`${id}:${code}`).digest();
  }
}
