import { parse } from 'lossless-json';
import { Money } from './money';

/** A JSON number the parser turns into a string, because a JS number would change its value. */
function parseNumber(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) && new Money(String(value)).eq(new Money(text)) ? value : text;
}

const POISON = /"(?:__proto__|constructor|prototype)"\s*:/;

/** A UTF-16 surrogate without its other half: JSON's `\ud800` escape makes one, UTF-8 cannot carry it, and validators throw on it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Only bodies that escape a surrogate can hold one: the decoded text of a request is well-formed. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (value === null || typeof value !== 'object') return false;
  for (const [key, child] of Object.entries(value)) if (LONE_SURROGATE.test(key) || hasLoneSurrogate(child)) return true;
  return false;
}

export class JsonBodyError extends SyntaxError {
  readonly statusCode = 400;
}

/**
 * Parses a request body. A number that a JS number cannot hold exactly (12345678901234567.89)
 * stays a string, so amounts sent as JSON numbers are never rounded on the way in.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new JsonBodyError('The JSON body is empty');
  if (POISON.test(text)) throw new JsonBodyError('The JSON body uses a forbidden key');
  let value: unknown;
  try {
    value = parse(text, null, parseNumber);
  } catch {
    throw new JsonBodyError('The request body is not valid JSON');
  }
  if (SURROGATE_ESCAPE.test(text) && hasLoneSurrogate(value)) {
    throw new JsonBodyError('The JSON body has a \\u escape of half a character (a lone surrogate): send whole characters');
  }
  return value;
}
