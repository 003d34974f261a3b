import { createHmac } from 'node:crypto';

/** Attempts before a delivery is marked failed: with the default 10 s doubling to a 2 h cap, about a day. */
export const MAX_ATTEMPTS = 21;
const MAX_DELAY_MS = 2 * 3600 * 1000;

/** The Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the secret's bytes. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The delay before attempt `attempts + 1`: exponential, capped, with ±25 % jitter so retries of many deliveries spread out. */
export function backoffMs(baseMs: number, attempts: number): number {
  const delay = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(delay * (0.75 + Math.random() * 0.5));
}
