import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/error-response.dto';
import { IdempotencyInterceptor } from './idempotency.interceptor';

export const IDEMPOTENT_KEY = 'finapi:idempotent';

/**
 * Marks a money-moving route: it runs as one unit of work, accepts an `Idempotency-Key`, and a
 * retry with the same key and body takes effect once. Services under it need do nothing.
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT_KEY, true),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'Retries with the same key and body take effect once (1–255 printable characters)',
    }),
    ApiConflictResponse({
      description: 'The state forbids it, or a request with the same Idempotency-Key is still running',
      type: ErrorResponseDto,
    }),
    ApiUnprocessableEntityResponse({ description: 'The Idempotency-Key was used with another body', type: ErrorResponseDto }),
  );
}
