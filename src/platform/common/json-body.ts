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
 * The deepest a body may nest objects and arrays (no body of the API comes near). 3,000 nested objects overflowed
 * the stack of class-transformer (and of any recursive walk after it), a 500 with a RangeError logged (issue 43).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether the text nests objects or arrays deeper than `max`: one pass over the characters, without recursion, before
 * anything parses it. Brackets inside strings do not count; the text need not be valid JSON (the parser says so next).
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote among them
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * Parses a request body. A number that a JS number cannot hold exactly (12345678901234567.89)
 * stays a string, so amounts sent as JSON numbers are never rounded on the way in. A body nested
 * deeper than MAX_JSON_DEPTH is refused before it is parsed.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new JsonBodyError('The JSON body is empty');
  if (POISON.test(text)) throw new JsonBodyError('The JSON body uses a forbidden key');
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) throw new JsonBodyError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
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
