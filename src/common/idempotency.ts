import { createHash } from 'node:crypto';
import { createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { applyDecorators } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EntityManager } from 'typeorm';
import { UnitOfWork } from '../database/unit-of-work';
import { query } from '../database/sql';
import { ApiError } from './api-error';
import { ErrorResponseDto } from './error-response.dto';

const KEY = /^[\x20-\x7e]{1,255}$/;

/** A money-moving request's idempotency: its key (if any) and a fingerprint of what it asks. */
export interface IdempotencyContext {
  key?: string;
  fingerprint: string;
  reply: FastifyReply;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Reads the Idempotency-Key header and fingerprints the request (method, route, body). */
export const Idempotency = createParamDecorator((_: unknown, ctx: ExecutionContext): IdempotencyContext => {
  const http = ctx.switchToHttp();
  const request = http.getRequest<FastifyRequest>();
  const header = request.headers['idempotency-key'];
  if (Array.isArray(header)) throw ApiError.invalid('Idempotency-Key', 'must be sent once');
  if (header !== undefined && !KEY.test(header)) throw ApiError.invalid('Idempotency-Key', 'must be 1 to 255 printable characters');
  const fingerprint = createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n${request.url.split('?')[0] ?? ''}\n${canonical(request.body)}`)
    .digest('hex');
  return { key: header, fingerprint, reply: http.getResponse<FastifyReply>() };
});

/** Documents the header and its answers on a money-moving route. */
export function IdempotentRoute(): MethodDecorator {
  return applyDecorators(
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

/**
 * Runs money-moving work once per (user, Idempotency-Key). The stored answer is written in the
 * same transaction as the work's effect; a repeat replays it with `Idempotent-Replayed: true`,
 * another body under the same key is a 422, and a repeat while the first runs is a 409.
 * Failed requests store nothing, so they can be retried with the same key.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly uow: UnitOfWork) {}

  async run<T extends object>(
    userId: string,
    context: IdempotencyContext,
    status: number,
    work: (manager: EntityManager) => Promise<T>,
    operationIdOf: (result: T) => string | undefined = () => undefined,
  ): Promise<T> {
    const { key } = context;
    if (key === undefined) return this.uow.run(work);
    return this.uow.run(async (m) => {
      const [{ locked }] = await query<{ locked: boolean }>(m, 'SELECT pg_try_advisory_xact_lock(hashtext($1), hashtext($2)) AS locked', [
        userId,
        key,
      ]);
      if (!locked) throw ApiError.conflict('exception.idempotency.in_flight', 'A request with this Idempotency-Key is still running');
      const [stored] = await query<{ request_hash: string; response_body: T }>(
        m,
        'SELECT request_hash, response_body FROM idempotency_keys WHERE user_id = $1 AND key = $2',
        [userId, key],
      );
      if (stored) {
        if (stored.request_hash !== context.fingerprint) {
          throw ApiError.unprocessable('exception.idempotency.key_reused', 'This Idempotency-Key was used with a different request');
        }
        void context.reply.header('Idempotent-Replayed', 'true');
        return stored.response_body;
      }
      const result = await work(m);
      await query(
        m,
        `INSERT INTO idempotency_keys (user_id, key, request_hash, response_status, response_body, operation_id) VALUES ($1, $2, $3, $4, $5, $6)`,
        [userId, key, context.fingerprint, status, JSON.stringify(result), operationIdOf(result) ?? null],
      );
      return result;
    });
  }
}
