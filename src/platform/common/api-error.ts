import { ErrorCode, ERRORS } from './errors';

export interface FieldError {
  parameter: string;
  message: string;
}

/**
 * Every error the service answers with on purpose: a code of the catalogue (`errors.ts`, which
 * gives its status), a message (the catalogue's unless a more precise one is given), and
 * field-level problems.
 */
export class ApiError extends Error {
  readonly status: number;
  /** Sent as the Retry-After header of a 429. */
  retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly errors: FieldError[] = [],
    /** Only for errors of the framework whose status the catalogue does not name (error-mapping.ts). */
    status?: number,
  ) {
    super(message ?? ERRORS[code].message);
    this.status = status ?? ERRORS[code].status;
  }

  /** A 400 about one field: `parameter` is its path (`paymentTool.srcValue`). */
  static invalid(parameter: string, message: string): ApiError {
    return new ApiError('exception.validation', `${parameter} ${message}`, [{ parameter, message }]);
  }

  /** A 429 with its Retry-After. */
  static tooManyRequests(message: string, retryAfterSeconds: number): ApiError {
    return Object.assign(new ApiError('exception.rate_limited', message), { retryAfterSeconds });
  }
}
