import { randomBytes } from 'node:crypto';
import { formatAmount, Money } from './money';

/** Marks a decimal inside JSON.stringify's output; random per process, so no stored or sent string can forge it. */
const MARKER = `\u0000${randomBytes(6).toString('hex')}:`;
const MARKED = new RegExp(`"\\\\u0000${MARKER.slice(1)}(-?\\d+(?:\\.\\d+)?)"`, 'g');

/**
 * An exact decimal that is written into an answer as a JSON number whose text is the decimal
 * (`354.50`, `12345678901234567.89`, `0.000000000000000001`), never through a float.
 */
export class JsonDecimal {
  constructor(readonly text: string) {}

  toJSON(): string {
    return MARKER + this.text;
  }

  toString(): string {
    return this.text;
  }
}

/** An amount for an answer: the currency's decimals (`scale`), as an exact JSON number. */
export function amountOf(value: Money | string, scale: number): JsonDecimal {
  return new JsonDecimal(formatAmount(value, scale));
}

/** Marks a one-time secret inside JSON.stringify's output, like MARKER. */
const SECRET = `\u0001${randomBytes(6).toString('hex')}:`;
const SECRET_START = new RegExp(`"\\\\u0001${SECRET.slice(1)}`, 'g');
const SECRET_VALUE = new RegExp(`"\\\\u0001${SECRET.slice(1)}(?:[^"\\\\]|\\\\.)*"`, 'g');

/**
 * A secret an answer shows once (a voucher's code): written into the answer as a JSON string, but
 * never into the copy an idempotent replay sends (`serializeAnswer`'s `stored`), where it is `null` — the
 * service keeps only the secret's hash, nowhere its text.
 */
export class OneTimeSecret {
  constructor(readonly text: string) {}

  toJSON(): string {
    return SECRET + this.text;
  }
}

/** An answer already serialized (an idempotent replay): sent as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The reply serializer: JSON.stringify, with every JsonDecimal written as its number and every OneTimeSecret as its text. */
export function serializeJson(payload: unknown): string {
  if (payload instanceof RawJson) return payload.text;
  const text = decimals(JSON.stringify(payload));
  return text.includes(SECRET.slice(1)) ? text.replace(SECRET_START, '"') : text;
}

/**
 * An idempotent route's answer, stringified once: as it is sent (serializeJson's text) and as it is stored to replay
 * (serializeStored's) — the same text unless the answer holds a OneTimeSecret.
 */
export function serializeAnswer(payload: unknown): { sent: RawJson; stored: string } {
  if (payload instanceof RawJson) return { sent: payload, stored: payload.text };
  const text = decimals(JSON.stringify(payload));
  // Without a secret (most answers) the sent text is the stored one: its decimals are written once.
  if (!text.includes(SECRET.slice(1))) return { sent: new RawJson(text), stored: text };
  return { sent: new RawJson(text.replace(SECRET_START, '"')), stored: text.replace(SECRET_VALUE, 'null') };
}

/** Every JsonDecimal of JSON.stringify's output written as its number. */
function decimals(text: string): string {
  return text.includes(MARKER.slice(1)) ? text.replace(MARKED, '$1') : text;
}
