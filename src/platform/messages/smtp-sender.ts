import { createTransport, type Transporter } from 'nodemailer';
import type { RenderedMessage } from './message-templates';

/** A refusal that trying again will not change (an SMTP 5xx, a gateway's 4xx): the message fails at once. */
export class PermanentFailure extends Error {}

/** The nodemailer options of an SMTP_URL (checked by the configuration): host, port, TLS, credentials. */
export function smtpOptions(smtpUrl: string, timeoutMs: number) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const starttls = url.searchParams.get('starttls') ?? 'required';
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    requireTLS: !secure && starttls === 'required',
    ignoreTLS: !secure && starttls === 'off',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // One connection per message: nothing idles between sends, and a stalled server holds one message only.
    pool: false as const,
  };
}

/** E-mail over SMTP (nodemailer), from MAIL_FROM, one message per `send`. */
export class SmtpSender {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    timeoutMs: number,
  ) {
    this.transport = createTransport(smtpOptions(smtpUrl, timeoutMs));
  }

  /**
   * Sends `message` to `to`. Its Message-ID is made of the message's id, so a message sent again after a crash (the
   * server took it, the service died before recording it) is the same message to the receiving systems.
   */
  async send(id: string, to: string, message: RenderedMessage): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.from,
        to,
        subject: message.subject,
        text: message.text,
        messageId: `<${id}@finapi>`,
        headers: { 'X-Finapi-Message-Id': id },
      });
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      const reason = error instanceof Error ? error.message : String(error);
      if (code !== undefined && code >= 500) throw new PermanentFailure(`SMTP ${code}: ${reason}`, { cause: error });
      throw new Error(code !== undefined ? `SMTP ${code}: ${reason}` : reason, { cause: error });
    }
  }
}
