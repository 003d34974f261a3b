import { QueryFailedError } from 'typeorm';
import { ApiError } from './api-error';
import { JsonBodyError } from './json-body';
import { sqlState } from './sql-state';

const CODE_BY_STATUS: Record<number, [string, string]> = {
  400: ['exception.validation', 'The request is invalid'],
  401: ['exception.authorization.unauthorized', 'Authentication required'],
  403: ['exception.access.forbidden', 'You are not permitted to do this'],
  404: ['exception.not_found', 'Not found'],
  405: ['exception.method_not_allowed', 'Method not allowed'],
  406: ['exception.not_acceptable', 'Not acceptable'],
  409: ['exception.conflict', 'The resource is in a state that forbids this'],
  413: ['exception.request.too_large', 'The request body is too large (at most 1 MB)'],
  415: ['exception.request.unsupported_media_type', 'The request body must be application/json'],
  422: ['exception.unprocessable', 'The request cannot be processed'],
  429: ['exception.rate_limited', 'Too many requests'],
  503: ['exception.unavailable', 'The service is temporarily unavailable'],
};

/** Where a database error is the client's doing, it maps to a 4xx. */
function fromDatabase(error: QueryFailedError): ApiError | undefined {
  const state = sqlState(error) ?? '';
  if (state === '23505') return ApiError.conflict('exception.conflict.duplicate', 'A resource with the same unique value already exists');
  if (state === '23503')
    return ApiError.conflict('exception.conflict.reference', 'The resource is referenced by or refers to another resource');
  if (state === '40001' || state === '40P01' || state === '55P03') {
    return ApiError.conflict('exception.conflict.concurrent_update', 'The resource was changed concurrently; retry the request');
  }
  if (state.startsWith('22')) return ApiError.badRequest('exception.validation.value', 'A value is out of range or malformed');
  return undefined;
}

const UNAVAILABLE_STATES = new Set(['55000', '08000', '08001', '08003', '08006', '53300', '57P01', '57P02', '57P03', '3D000']);
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

/** The database is down or refuses connections: the service is unavailable, not broken. */
function fromOutage(error: unknown): ApiError | undefined {
  const state = sqlState(error) ?? '';
  const message = error instanceof Error ? error.message : '';
  if (
    UNAVAILABLE_STATES.has(state) ||
    UNAVAILABLE_CODES.has(state) ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(message)
  ) {
    return new ApiError(503, 'exception.unavailable', 'The service is temporarily unavailable; retry shortly');
  }
  return undefined;
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
    return ApiError.badRequest('exception.request.malformed_json', message);
  }
  const [mapped, message] = CODE_BY_STATUS[status] ?? ['exception.request', 'The request is invalid'];
  return new ApiError(status, mapped, message);
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
  const [code, fallback] = CODE_BY_STATUS[status] ?? [status >= 500 ? 'exception.internal' : 'exception.request', 'Request failed'];
  const response = exception.getResponse();
  let message = fallback;
  if (status < 500) {
    const raw = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    if (typeof raw === 'string') message = raw;
  }
  return new ApiError(status, code, message);
}

/**
 * Decides how any thrown value is answered. Pure, so the mapping is unit-tested; `expected` is
 * false for what must be logged as a fault.
 */
export function toApiError(exception: unknown): { error: ApiError; expected: boolean } {
  let error: ApiError | undefined;
  if (exception instanceof ApiError) error = exception;
  else if (isHttpException(exception)) error = fromFramework(exception.cause) ?? fromHttpException(exception);
  else error = fromOutage(exception) ?? (exception instanceof QueryFailedError ? fromDatabase(exception) : fromFramework(exception));
  if (!error) return { error: new ApiError(500, 'exception.internal', 'An internal error occurred'), expected: false };
  return { error, expected: error.status < 500 };
}
