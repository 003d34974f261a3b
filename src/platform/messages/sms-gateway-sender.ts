import { createHmac } from 'node:crypto';
import type { RenderedMessage } from './message-templates';
import { PermanentFailure } from './smtp-sender';

/** The signature of an SMS gateway request: `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with SMS_GATEWAY_SECRET. */
export function smsSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * SMS through an HTTP gateway (docs/authentication.md, "Sending messages"): a JSON POST to SMS_GATEWAY_URL,
 * `{id, to, text, createdAt}`, signed in `Finapi-Signature`. Any 2xx is taken; 408, 429 and 5xx (or no answer) are
 * tried again; any other status is a refusal that fails the message at once.
 */
export class SmsGatewaySender {
  constructor(
    private readonly url: string,
    private readonly secret: string,
    private readonly timeoutMs: number,
  ) {}

  async send(id: string, to: string, message: RenderedMessage): Promise<void> {
    const body = JSON.stringify({ id, to, text: message.sms, createdAt: new Date().toISOString() });
    let status: number;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'finapi-messages/1',
          'idempotency-key': id,
          'finapi-signature': smsSignature(this.secret, body),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (error) {
      throw new Error(error instanceof Error ? (error.name === 'TimeoutError' ? 'timeout' : error.message) : String(error), {
        cause: error,
      });
    }
    if (status >= 200 && status < 300) return;
    if (status === 408 || status === 429 || status >= 500) throw new Error(`HTTP ${status}`);
    throw new PermanentFailure(`HTTP ${status}`);
  }
}
