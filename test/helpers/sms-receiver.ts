import { createHmac, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';
import { LocalEndpoint } from './local-endpoint';

/** One SMS request as the gateway received it. */
export interface Sms {
  id: string;
  to: string;
  text: string;
  createdAt: string;
  body: string;
  idempotencyKey: string;
  /** Whether `Finapi-Signature` is the HMAC-SHA256 of the raw body with the gateway's secret (as docs/authentication.md shows). */
  verified: boolean;
  at: number;
}

/** Verifies a request's `Finapi-Signature` as a provider adapter would: `sha256=` and the hex HMAC of the raw body. */
export function verifySms(secret: string, body: string, header: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const presented = Buffer.from(header);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/**
 * A local HTTP SMS gateway: records each POST with its signature checked. `answers` is consumed one per request: a
 * status, or 'hang' (never answer, until the service's timeout).
 */
export class SmsReceiver extends LocalEndpoint {
  protected readonly path = '/sms';
  readonly received: Sms[] = [];
  attempts = 0;
  readonly secret = 'sms-gateway-secret-for-tests';
  private readonly events = new EventEmitter();

  to(to: string): Sms[] {
    return this.received.filter((m) => m.to === to);
  }

  /** The `n`-th SMS (from 1) to `to`, as soon as it arrives; fails after `timeoutMs` without it. */
  sms(to: string, n = 1, timeoutMs = 30_000): Promise<Sms> {
    const found = () => this.to(to)[n - 1];
    return new Promise((resolve, reject) => {
      const now = found();
      if (now) return resolve(now);
      const timer = setTimeout(() => {
        this.events.off('sms', heard);
        reject(new Error(`no SMS #${n} came to ${to}`));
      }, timeoutMs);
      const heard = () => {
        const sms = found();
        if (!sms) return;
        clearTimeout(timer);
        this.events.off('sms', heard);
        resolve(sms);
      };
      this.events.on('sms', heard);
    });
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    this.attempts++;
    const answer = this.answers.shift() ?? 200;
    if (answer === 'hang') {
      this.hanging.push(res);
      return;
    }
    if (answer >= 200 && answer < 300) {
      const parsed = JSON.parse(body) as { id: string; to: string; text: string; createdAt: string };
      this.received.push({
        ...parsed,
        body,
        idempotencyKey: String(req.headers['idempotency-key'] ?? ''),
        verified: verifySms(this.secret, body, String(req.headers['finapi-signature'] ?? '')),
        at: Date.now(),
      });
      this.events.emit('sms', this.received[this.received.length - 1]);
    }
    res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
  }
}
