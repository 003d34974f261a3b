import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { pageOf, pageWindow, type Page } from '../common/paging.dto';
import { UnitOfWork } from '../database/unit-of-work';
import { MessageSenders } from './message-senders';
import { sealSecret } from './message-secret';
import { MESSAGE_LOCALES, type CodePurpose, type MessageLocale, type NoticeTemplate } from './message.types';
import { MessagesRepository, type MessageFilter, type MessageRow } from './messages.repository';

export const MESSAGE_KEY = Symbol('MESSAGE_KEY');

/**
 * The messages outbox (issue 46): a code or a notice is written in the open transaction — none for a rolled-back
 * change, none lost by a crash after the commit — and the dispatcher (MessageDispatcher) sends it after the commit,
 * woken by it in this instance and by polling in the others. No request waits for SMTP.
 */
@Injectable()
export class MessagesService {
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly messages: MessagesRepository,
    private readonly senders: MessageSenders,
    private readonly uow: UnitOfWork,
    @Inject(MESSAGE_KEY) private readonly key: Buffer,
  ) {}

  /** Queues the code `code` (of the one_time_codes row `codeId`) to `to`; its secret is stored sealed until sent. */
  async queueCode(code: {
    codeId: string;
    purpose: CodePurpose;
    to: string;
    code: string;
    expiresAt: Date;
    details?: Record<string, string>;
    locale?: string;
  }): Promise<void> {
    const id = randomUUID();
    await this.queue({
      id,
      channel: this.senders.channelOf(code.to),
      recipient: code.to,
      kind: 'code',
      template: code.purpose,
      locale: localeOf(code.locale),
      details: code.details ?? {},
      secret: sealSecret(this.key, id, code.code),
      codeId: code.codeId,
      expiresAt: code.expiresAt,
    });
  }

  /** Queues a notice (no secret) to `to`. */
  async queueNotice(to: string, template: NoticeTemplate, details: Record<string, string>, locale?: string | null): Promise<void> {
    await this.queue({
      id: randomUUID(),
      channel: this.senders.channelOf(to),
      recipient: to,
      kind: 'notice',
      template,
      locale: localeOf(locale ?? undefined),
      details,
      secret: null,
      codeId: null,
      expiresAt: null,
    });
  }

  /** Queues notices (no secret), in one statement: each `to` its template, details and locale. */
  async queueNotices(
    notices: { to: string; template: NoticeTemplate; details: Record<string, string>; locale?: string | null }[],
  ): Promise<void> {
    if (!notices.length) return;
    await this.uow.run(() =>
      this.messages.insertNotices(
        notices.map((n) => ({
          id: randomUUID(),
          channel: this.senders.channelOf(n.to),
          recipient: n.to,
          template: n.template,
          locale: localeOf(n.locale ?? undefined),
          details: n.details,
        })),
      ),
    );
    this.uow.afterCommit(() => this.listeners.forEach((wake) => wake()));
  }

  /** Called after every commit that queued a message (the dispatcher). */
  onQueued(listener: () => void): void {
    this.listeners.push(listener);
  }

  async view(filter: MessageFilter, page: { pageNumber?: number; pageSize?: number; all?: boolean }): Promise<Page<MessageRow>> {
    const { offset, limit } = pageWindow(page);
    const { total, rows } = await this.messages.view(filter, offset, limit);
    return pageOf(page, total, rows);
  }

  counts(): Promise<{ pending: number; failed: number }> {
    return this.messages.counts();
  }

  private async queue(message: Parameters<MessagesRepository['insert']>[0]): Promise<void> {
    await this.uow.run(() => this.messages.insert(message));
    this.uow.afterCommit(() => this.listeners.forEach((wake) => wake()));
  }
}

function localeOf(locale: string | undefined): MessageLocale {
  const language = locale?.toLowerCase().split(/[-_]/)[0];
  return (MESSAGE_LOCALES as readonly string[]).includes(language ?? '') ? (language as MessageLocale) : 'en';
}
