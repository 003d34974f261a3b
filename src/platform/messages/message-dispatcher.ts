import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { messagesSent } from '../common/metrics';
import { ClaimLoop } from '../common/claim-loop';
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
  private readonly loop: ClaimLoop<ClaimedMessage>;
  private readonly logger = new Logger(MessageDispatcher.name);
  constructor(
    private readonly messages: MessagesRepository,
    private readonly service: MessagesService,
    private readonly senders: MessageSenders,
    @Inject(MESSAGE_KEY) private readonly key: Buffer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.loop = new ClaimLoop<ClaimedMessage>({
      logger: this.logger,
      what: 'message',
      pollMs: this.config.messagesPollMs,
      claim: () => this.messages.claim(BATCH, 3 * this.config.messagesTimeoutMs + 5000),
      deliver: (m) => this.deliver(m),
    });
  }

  onApplicationBootstrap(): void {
    this.service.onQueued(() => this.loop.wake());
    this.loop.start();
  }

  /** Background work stops before the pools close (actuator/shutdown.ts). */
  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
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
