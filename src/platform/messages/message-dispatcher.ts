import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { messagesSent } from '../common/metrics';
import { logFailure } from '../common/outage';
import { APP_CONFIG, AppConfig } from '../config/config';
import { openSecret } from './message-secret';
import { MessageSenders } from './message-senders';
import type { CodePurpose, Delivery, MessageLocale, NoticeTemplate } from './message.types';
import { ClaimedMessage, MessagesRepository } from './messages.repository';
import { MESSAGE_KEY, MessagesService } from './messages.service';
import { PermanentFailure } from './smtp-sender';

const BATCH = 20;
const MAX_DELAY_MS = 3600 * 1000;

/** The delay before attempt `attempts + 1`: exponential from `baseMs`, capped at an hour, ±25 % jitter. */
export function messageBackoffMs(baseMs: number, attempts: number): number {
  const delay = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(delay * (0.75 + Math.random() * 0.5));
}

/**
 * Sends the messages outbox: in every instance, woken after each commit that queued a message and every
 * MESSAGES_POLL_MS. A claim leases rows, so no two instances send one message at a time; an attempt is bounded by
 * the lease (MESSAGES_TIMEOUT_MS per exchange, the whole attempt cut at twice that), and its outcome is recorded only
 * for the claim that made it. A crash between a send and its record leaves the lease to run out and the message is
 * sent again under the same id (the e-mail's Message-ID, the SMS request's Idempotency-Key), which the receiving
 * side recognizes. A code's message is not sent once the code expired; a message failed for good erases its secret
 * and frees its code from the owner's limits.
 */
@Injectable()
export class MessageDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MessageDispatcher.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly messages: MessagesRepository,
    private readonly service: MessagesService,
    private readonly senders: MessageSenders,
    @Inject(MESSAGE_KEY) private readonly key: Buffer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.service.onQueued(() => this.wake());
    this.timer = setInterval(() => this.wake(), this.config.messagesPollMs);
    this.timer.unref();
    this.wake();
  }

  /** Background work stops before the pools close (actuator/shutdown.ts). */
  async onModuleDestroy(): Promise<void> {
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
    this.running = this.rounds()
      .catch((error: unknown) =>
        logFailure(
          this.logger,
          'the message dispatch',
          error,
          `message dispatch failed: ${error instanceof Error ? error.message : String(error)}`,
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
        const claimed = await this.messages.claim(BATCH, 3 * this.config.messagesTimeoutMs + 5000);
        if (!claimed.length) break;
        await Promise.all(claimed.map((m) => this.deliver(m)));
      }
    } while (this.again && !this.stopped);
  }

  private async deliver(m: ClaimedMessage): Promise<void> {
    let error: string | null = null;
    let permanent = false;
    if (!m.channel) [error, permanent] = ['no configured sender reaches this recipient', true];
    else if (m.kind === 'code' && m.expires_at && m.expires_at.getTime() <= Date.now())
      [error, permanent] = ['the code expired before it could be sent', true];
    else {
      try {
        await this.within(this.senders.deliver(m.channel, m.id, this.deliveryOf(m)), 2 * this.config.messagesTimeoutMs);
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
        permanent = e instanceof PermanentFailure;
      }
    }
    const sent = error === null;
    const retryInMs =
      sent || permanent || m.attempts >= this.config.messagesMaxAttempts
        ? null
        : messageBackoffMs(this.config.messagesRetryBaseMs, m.attempts);
    const outcome = sent ? 'sent' : retryInMs === null ? 'failed' : 'retry';
    messagesSent.inc({ channel: m.channel ?? 'none', outcome });
    // A message's error names the server's answer, never the message: a code never reaches the log.
    if (outcome === 'failed')
      this.logger.warn(`A ${m.kind} message (${m.template}, ${m.id}) could not be delivered by ${m.channel ?? 'any sender'}: ${error}`);
    await this.messages.finish(m.id, m.attempts, { sent, error: error?.slice(0, 500) ?? null, retryInMs });
  }

  private deliveryOf(m: ClaimedMessage): Delivery {
    const locale = m.locale as MessageLocale;
    if (m.kind === 'notice') return { kind: 'notice', to: m.recipient, template: m.template as NoticeTemplate, details: m.details, locale };
    return {
      kind: 'code',
      purpose: m.template as CodePurpose,
      to: m.recipient,
      code: openSecret(this.key, m.id, m.secret!),
      expiresAt: m.expires_at!,
      details: Object.keys(m.details).length ? m.details : undefined,
      locale,
    };
  }

  /** `work`, or a timeout after `ms` (an attempt never outlives its lease). */
  private async within<T>(work: Promise<T>, ms: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), ms);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
