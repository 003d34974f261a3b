import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/config';
import { LogCodeSender } from './log-code-sender';
import { renderMessage } from './message-templates';
import { addressKind, type CodeSender, type Delivery, type MessageChannel } from './message.types';
import { SmsGatewaySender } from './sms-gateway-sender';
import { PermanentFailure, SmtpSender } from './smtp-sender';

/**
 * The configured senders, chosen by what the recipient is: an e-mail address goes by SMTP (SMTP_URL), a phone number
 * by the SMS gateway (SMS_GATEWAY_URL); what no configured gateway reaches goes to the log sender's file, unless
 * NODE_ENV=production without MESSAGES_LOG_ONLY (then it cannot be delivered).
 */
@Injectable()
export class MessageSenders implements CodeSender {
  private readonly email?: SmtpSender;
  private readonly sms?: SmsGatewaySender;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly log: LogCodeSender,
  ) {
    if (config.smtpUrl && config.mailFrom) this.email = new SmtpSender(config.smtpUrl, config.mailFrom, config.messagesTimeoutMs);
    if (config.smsGatewayUrl && config.smsGatewaySecret) {
      this.sms = new SmsGatewaySender(config.smsGatewayUrl, config.smsGatewaySecret, config.messagesTimeoutMs);
    }
  }

  /** The channel a message to `to` takes, or undefined when none may carry it. */
  channelOf(to: string): MessageChannel | undefined {
    const kind = addressKind(to);
    if (kind === 'email' && this.email) return 'email';
    if (kind === 'sms' && this.sms) return 'sms';
    return this.config.messagesToLog ? 'log' : undefined;
  }

  /** Delivers on `channel`; `id` names the message to the receiving systems (the same id again is the same message). */
  async deliver(channel: MessageChannel, id: string, delivery: Delivery): Promise<void> {
    if (channel === 'log') return this.log.send(delivery);
    const sender = channel === 'email' ? this.email : this.sms;
    if (!sender) throw new PermanentFailure(`no ${channel} sender is configured`);
    await sender.send(id, delivery.to, renderMessage(delivery));
  }

  async send(delivery: Delivery): Promise<void> {
    const channel = this.channelOf(delivery.to);
    if (!channel) throw new PermanentFailure('no configured sender reaches this recipient');
    await this.deliver(channel, randomUUID(), delivery);
  }
}
