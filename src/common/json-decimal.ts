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

/** An answer already serialized (an idempotent replay): sent as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The reply serializer: JSON.stringify, with every JsonDecimal written as its number. */
export function serializeJson(payload: unknown): string {
  if (payload instanceof RawJson) return payload.text;
  const text = JSON.stringify(payload);
  return text.includes(MARKER.slice(1)) ? text.replace(MARKED, '$1') : text;
}
