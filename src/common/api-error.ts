export interface FieldError {
  parameter: string;
  message: string;
}

/**
 * Every error the service answers with on purpose. `code` is the stable dotted key clients
 * translate; `errors` lists field-level problems.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }

  static badRequest(code: string, message: string, errors: FieldError[] = []): ApiError {
    return new ApiError(400, code, message, errors);
  }
  static invalid(parameter: string, message: string): ApiError {
    return new ApiError(400, 'exception.validation', `${parameter} ${message}`, [{ parameter, message }]);
  }
  static unauthorized(code = 'exception.authorization.unauthorized', message = 'Authentication required'): ApiError {
    return new ApiError(401, code, message);
  }
  static forbidden(code = 'exception.access.forbidden', message = 'You are not permitted to do this'): ApiError {
    return new ApiError(403, code, message);
  }
  static notFound(code: string, message: string): ApiError {
    return new ApiError(404, code, message);
  }
  static conflict(code: string, message: string): ApiError {
    return new ApiError(409, code, message);
  }
  static unprocessable(code: string, message: string): ApiError {
    return new ApiError(422, code, message);
  }
  static tooManyRequests(message: string, retryAfterSeconds: number): ApiError {
    return Object.assign(new ApiError(429, 'exception.rate_limited', message), { retryAfterSeconds });
  }

  /** Sent as the Retry-After header of a 429. */
  retryAfterSeconds?: number;
}
