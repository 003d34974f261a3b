import { parse } from 'lossless-json';
import { Money } from './money';

/** A JSON number the parser turns into a string, because a JS number would change its value. */
function parseNumber(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) && new Money(String(value)).eq(new Money(text)) ? value : text;
}

const POISON = /"(?:__proto__|constructor|prototype)"\s*:/;

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
  try {
    return parse(text, null, parseNumber);
  } catch {
    throw new JsonBodyError('The request body is not valid JSON');
  }
}
