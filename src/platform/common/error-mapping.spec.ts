import { QueryFailedError } from 'typeorm';
import { ApiError } from './api-error';
import { toApiError } from './error-mapping';

function dbError(code: string, message: string): QueryFailedError {
  return new QueryFailedError('SELECT secret FROM users', [], Object.assign(new Error(message), { code }));
}

describe('toApiError', () => {
  it('keeps domain errors as they are', () => {
    const { error, expected } = toApiError(new ApiError('exception.coin.closed', 'The coin is closed'));
    expect(expected).toBe(true);
    expect(error).toMatchObject({ status: 409, code: 'exception.coin.closed', message: 'The coin is closed', errors: [] });
  });

  it('turns an unknown error into a 500 without internals, to be logged', () => {
    const { error, expected } = toApiError(new TypeError("Cannot read properties of undefined (reading 'balance')"));
    expect(expected).toBe(false);
    expect(error).toMatchObject({ status: 500, code: 'exception.internal', message: 'An internal error occurred' });
  });

  it.each([
    ['23505', 409, 'exception.conflict.duplicate'],
    ['23503', 409, 'exception.conflict.reference'],
    ['40001', 409, 'exception.conflict.concurrent_update'],
    ['40P01', 409, 'exception.conflict.concurrent_update'],
    ['22P02', 400, 'exception.validation.value'],
    ['22003', 400, 'exception.validation.value'],
    ['23502', 400, 'exception.validation.value'],
    ['23514', 400, 'exception.validation.value'],
    ['57P01', 503, 'exception.unavailable'],
    ['XX000', 500, 'exception.internal'],
  ])('maps SQLSTATE %s to %d %s without the SQL or driver message', (code: string, status: number, expectedCode: string) => {
    const { error } = toApiError(dbError(code, 'duplicate key value violates unique constraint "users_login_key"'));
    expect(error.status).toBe(status);
    expect(error.code).toBe(expectedCode);
    expect(JSON.stringify({ m: error.message, e: error.errors })).not.toMatch(/SELECT|users_login_key|duplicate key/);
  });

  it('answers a NOT NULL or CHECK violation with 400 but logs it as a fault: the request checks let the value through', () => {
    for (const code of ['23502', '23514']) {
      const { error, expected } = toApiError(dbError(code, 'new row for relation "contacts" violates check constraint "contacts_check"'));
      expect(error).toMatchObject({ status: 400, code: 'exception.validation.value', message: 'A value is missing or out of range' });
      expect(expected).toBe(false);
    }
    expect(toApiError(dbError('23505', 'duplicate')).expected).toBe(true);
  });

  it.each([
    ['23505', 409, 'exception.conflict.duplicate'],
    ['40001', 409, 'exception.conflict.concurrent_update'],
    ['22P02', 400, 'exception.validation.value'],
    ['XX000', 500, 'exception.internal'],
  ])('maps SQLSTATE %s answered to pg directly (its DatabaseError) to %d %s', (code: string, status: number, expectedCode: string) => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "users_login_key"'), {
      code,
      severity: 'ERROR',
    });
    const { error } = toApiError(driverError);
    expect(error.status).toBe(status);
    expect(error.code).toBe(expectedCode);
    expect(error.message).not.toMatch(/users_login_key/);
  });

  it('does not take an error that merely has a code for a database error', () => {
    const { error } = toApiError(Object.assign(new Error('boom'), { code: '23505' }));
    expect(error.status).toBe(500);
  });

  it('maps Fastify body errors by their status', () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    expect(toApiError(tooLarge).error).toMatchObject({ status: 413, code: 'exception.request.too_large' });
    const badJson = Object.assign(new SyntaxError('Unexpected end of JSON input'), { statusCode: 400 });
    expect(toApiError(badJson).error).toMatchObject({ status: 400, code: 'exception.request.malformed_json' });
  });

  it('keeps the message of a framework 4xx and hides that of a 5xx', () => {
    const http = (status: number, message: string) => ({ getStatus: () => status, getResponse: () => ({ message }) });
    expect(toApiError(http(404, 'Cannot GET /x')).error).toMatchObject({
      status: 404,
      code: 'exception.not_found',
      message: 'Cannot GET /x',
    });
    expect(toApiError(http(503, 'db down: password=...')).error.message).not.toContain('password');
  });

  it('maps a lost database connection to 503', () => {
    expect(toApiError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })).error.status).toBe(503);
  });

  it('answers every connection-class condition 503 with Retry-After, said by the outage log rather than as a fault per request (issue 44)', () => {
    const conditions: unknown[] = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      dbError('08P01', 'server conn crashed?'),
      dbError('08006', 'connection failure'),
      dbError('08007', 'transaction resolution unknown'),
      dbError('57P01', 'terminating connection due to administrator command'),
      dbError('57P02', 'crash shutdown'),
      dbError('57P03', 'the database system is starting up'),
      dbError('25006', 'cannot execute INSERT in a read-only transaction'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
    ];
    for (const condition of conditions) {
      const mapped = toApiError(condition);
      expect({ condition: String(condition), status: mapped.error.status, code: mapped.error.code, outage: mapped.outage }).toEqual({
        condition: String(condition),
        status: 503,
        code: 'exception.unavailable',
        outage: true,
      });
      expect(mapped.error.retryAfterSeconds).toBe(1);
      expect(mapped.expected).toBe(true);
    }
    expect(toApiError(new ApiError('exception.unavailable', 'This instance is shutting down'))).toMatchObject({
      expected: true,
      outage: false,
    });
    expect(toApiError(new ApiError('exception.internal')).expected).toBe(false);
    expect(toApiError(dbError('23505', 'duplicate')).outage).toBe(false);
  });
});
