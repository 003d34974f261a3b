import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { LocalEndpoint } from './local-endpoint';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  event: { id: string; type: string; createdAt: string; data: any };
  /** Whether the Standard Webhooks signature matched the secret of the endpoint. */
  verified: boolean;
  at: number;
}

/** Verifies a Standard Webhooks signature as a receiver would (docs/operators.md shows the same in Node and Python). */
export function verify(secret: string, id: string, timestamp: string, body: string, signatureHeader: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return (
    fresh &&
    signatureHeader.split(' ').some((s) => {
      const [version, value] = s.split(',');
      const presented = Buffer.from(value ?? '');
      return version === 'v1' && presented.length === expected.length && timingSafeEqual(presented, expected);
    })
  );
}

/**
 * A webhook endpoint on 127.0.0.1 that records every delivery, verifying its signature with the
 * secret set after registration. `answers` is consumed one per request: a status, or 'hang' (never answer).
 */
export class Receiver extends LocalEndpoint {
  protected readonly path = '/hook';
  readonly received: Received[] = [];
  secret = '';
  /** Milliseconds to wait before answering 200s (to make parallel deliveries overlap). */
  delayMs = 0;

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.event.type === type);
  }

  /** Waits until `count` deliveries have arrived (or `timeoutMs` passes), then a quiet `settleMs` for any extra. */
  async waitFor(count: number, timeoutMs = 15_000, settleMs = 600): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, settleMs));
    return this.received;
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const header = (name: string) => String(req.headers[name] ?? '');
    const answer = this.answers.shift() ?? 200;
    this.received.push({
      id: header('webhook-id'),
      timestamp: header('webhook-timestamp'),
      signature: header('webhook-signature'),
      body,
      event: JSON.parse(body),
      verified: verify(this.secret, header('webhook-id'), header('webhook-timestamp'), body, header('webhook-signature')),
      at: Date.now(),
    });
    if (answer === 'hang') {
      this.hanging.push(res);
      return;
    }
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
  }
}
