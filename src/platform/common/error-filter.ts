import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError, FieldError } from './api-error';
import { toApiError } from './error-mapping';
import { outages } from './outage';

export interface ErrorBody {
  status: 'error';
  code: string;
  message: string;
  errors: FieldError[];
  requestId: string;
}

/** The one exception filter: every error leaves the service in the shape of api-conventions.md. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const request = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    const { error, expected, outage } = toApiError(exception);
    if (outage) outages.seen(exception, `${request?.method} ${request?.url}`);
    else if (!expected) this.logger.error({ err: exception, requestId: request?.id }, error.message);
    sendError(reply, error, String(request?.id ?? ''));
  }
}

/** Answers an error in the one shape; the filter above and Fastify's routing errors (app.factory.ts) send through it. */
export function sendError(reply: FastifyReply, error: ApiError, requestId: string): void {
  const body: ErrorBody = { status: 'error', code: error.code, message: error.message, errors: error.errors, requestId };
  if (error.status === 401) void reply.header('WWW-Authenticate', 'Bearer');
  if (error.retryAfterSeconds !== undefined) void reply.header('Retry-After', String(error.retryAfterSeconds));
  void reply.status(error.status).header('Content-Type', 'application/json; charset=utf-8').send(body);
}
