import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/error-response.dto';
import { GROUP_COMMIT_KEY, IdempotencyInterceptor } from './idempotency.interceptor';

export const IDEMPOTENT_KEY = 'finapi:idempotent';

export interface IdempotentOptions {
  /**
   * The route's one write is a grouped ledger posting (`ledger.execute({ grouped: true, … })`), after reads only.
   * Without an Idempotency-Key it then opens no transaction of its own, so its posting can commit together with
   * concurrent ones (group commit); with a key it runs as one unit of work like any other.
   */
  groupCommit?: boolean;
}

/**
 * Marks a money-moving route: it runs as one unit of work, accepts an `Idempotency-Key`, and a
 * retry with the same key and body takes effect once. Services under it need do nothing.
 */
export function Idempotent(options: IdempotentOptions = {}): MethodDecorator {
  return applyDecorators(
    IdempotentRoute(options),
    ApiConflictResponse({
      description: 'The state forbids it, or a request with the same Idempotency-Key is still running',
      type: ErrorResponseDto,
    }),
    ApiUnprocessableEntityResponse({ description: 'The Idempotency-Key was used with another body', type: ErrorResponseDto }),
  );
}

/** Idempotent's behaviour and its header, without its error responses: `@Route` describes those with the route's own. */
export function IdempotentRoute(options: IdempotentOptions = {}): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT_KEY, true),
    SetMetadata(GROUP_COMMIT_KEY, options.groupCommit === true),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'Retries with the same key and body take effect once (1–255 printable characters)',
    }),
  );
}
