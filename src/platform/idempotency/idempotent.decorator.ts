import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
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
 * Marks a money-moving route (`@Route(…, { idempotent })` applies it): it runs as one unit of work, accepts an
 * `Idempotency-Key`, and a retry with the same key and body takes effect once. Services under it need do nothing.
 */
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
