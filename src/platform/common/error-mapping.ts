import { QueryFailedError } from 'typeorm';
import { ApiError } from './api-error';
import { ErrorCode, ERRORS } from './errors';
import { JsonBodyError } from './json-body';
import { isOutage } from './outage';
import { sqlState } from './sql-state';

/** The catalogue's code for a status the framework answers with. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'exception.validation',
  401: 'exception.authorization.unauthorized',
  403: 'exception.access.forbidden',
  404: 'exception.not_found',
  405: 'exception.method_not_allowed',
  406: 'exception.not_acceptable',
  409: 'exception.conflict',
  413: 'exception.request.too_large',
  415: 'exception.request.unsupported_media_type',
  422: 'exception.unprocessable',
  429: 'exception.rate_limited',
  503: 'exception.unavailable',
};

/** An error PostgreSQL answered a statement with: pg's DatabaseError (a severity and a SQLSTATE), or TypeORM's wrapping of it. */
/** A statement's failure as PostgreSQL reported it (through pg or TypeORM). */
export function isDatabaseError(error: unknown): boolean {
  if (error instanceof QueryFailedError) return true;
  const e = error as { severity?: unknown; code?: unknown };
  return error instanceof Error && typeof e.severity === 'string' && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code);
}

/** Where a database error is the client's doing, it maps to a 4xx. */
function fromDatabase(error: unknown): ApiError | undefined {
  const state = sqlState(error) ?? '';
  if (state === '23505') return new ApiError('exception.conflict.duplicate');
  if (state === '23503') return new ApiError('exception.conflict.reference');
  if (state === '40001' || state === '40P01' || state === '55P03') return new ApiError('exception.conflict.concurrent_update');
  if (state.startsWith('22')) return new ApiError('exception.validation.value');
  if (SLIPPED_STATES.has(state)) return new ApiError('exception.validation.value', 'A value is missing or out of range');
  return undefined;
}

/**
 * NOT NULL and CHECK violations: a value the request's checks should have refused reached the
 * database. The client gets the 400 its input deserves; the service logs it as a fault to fix.
 */
const SLIPPED_STATES = new Set(['23502', '23514']);

/** The database is down, read-only or refuses connections: the service is unavailable, not broken; a client retries. */
function fromOutage(error: unknown): ApiError | undefined {
  if (!isOutage(error)) return undefined;
  return Object.assign(new ApiError('exception.unavailable'), { retryAfterSeconds: 1 });
}

/** Fastify's own errors (body parsing, limits) carry a statusCode. */
function fromFramework(error: unknown): ApiError | undefined {
  const e = error as { statusCode?: unknown; code?: unknown };
  if (typeof e?.statusCode !== 'number' || e.statusCode < 400 || e.statusCode >= 500) return undefined;
  const status = e.statusCode;
  const code = typeof e.code === 'string' ? e.code : '';
  if (status === 400 && (code.startsWith('FST_ERR_CTP') || error instanceof SyntaxError)) {
    const empty = code === 'FST_ERR_CTP_EMPTY_JSON_BODY';
    const message =
      error instanceof JsonBodyError ? error.message : empty ? 'The JSON body is empty' : 'The request body is not valid JSON';
    return new ApiError('exception.request.malformed_json', message);
  }
  const mapped = CODE_BY_STATUS[status] ?? 'exception.request';
  return new ApiError(mapped, undefined, [], status);
}

interface HttpExceptionLike {
  getStatus(): number;
  getResponse(): string | object;
  cause?: unknown;
}

function isHttpException(e: unknown): e is HttpExceptionLike {
  return typeof (e as HttpExceptionLike)?.getStatus === 'function' && typeof (e as HttpExceptionLike).getResponse === 'function';
}

function fromHttpException(exception: HttpExceptionLike): ApiError {
  const status = exception.getStatus();
  const code = CODE_BY_STATUS[status] ?? (status >= 500 ? 'exception.internal' : 'exception.request');
  const response = exception.getResponse();
  let message: string = ERRORS[code].message;
  if (status < 500) {
    const raw = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    if (typeof raw === 'string') message = raw;
  }
  return new ApiError(code, message, [], status);
}

/**
 * Decides how any thrown value is answered. Pure, so the mapping is unit-tested; `expected` is
 * false for what must be logged as a fault.
 */
export function toApiError(exception: unknown): { error: ApiError; expected: boolean; outage: boolean } {
  let error: ApiError | undefined;
  let outage = false;
  if (exception instanceof ApiError) error = exception;
  else if (isHttpException(exception)) error = fromFramework(exception.cause) ?? fromHttpException(exception);
  else {
    error = fromOutage(exception);
    outage = error !== undefined;
    error ??= isDatabaseError(exception) ? fromDatabase(exception) : fromFramework(exception);
  }
  if (!error) return { error: new ApiError('exception.internal'), expected: false, outage };
  const slipped = isDatabaseError(exception) && SLIPPED_STATES.has(sqlState(exception) ?? '');
  // A 503 the service answers on purpose (readiness while it shuts down), or because the database is unavailable (told
  // once per outage by the outage log, not per request), is no fault.
  const onPurpose = exception instanceof ApiError && error.status === 503;
  return { error, expected: (error.status < 500 && !slipped) || onPurpose || outage, outage };
}
