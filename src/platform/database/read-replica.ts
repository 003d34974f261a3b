import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { contextPart, runWithPart } from './async-context';

/** The pool of the replica searches read from (READ_DATABASE_URL), or null when there is none. */
export const READ_POOL = Symbol('READ_POOL');

/** Whether the running handler is a search that may read from the replica. */
export function replicaAllowed(): boolean {
  return contextPart('replica') === true;
}

/**
 * Searches (`POST …/view`) read from the replica when READ_DATABASE_URL is set. The guard has already run (the
 * token is always read from the primary); inside the handler `Database` sends its plain `SELECT`s outside a
 * transaction to the replica, anything else to the primary. A replica may lag: a search right after a write can
 * miss it, which is why only searches go there.
 */
@Injectable()
export class ReadReplicaInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest | undefined>();
    const search = request?.method === 'POST' && (request.routeOptions?.url ?? '').endsWith('/view');
    if (!search) return next.handle();
    return new Observable((subscriber) => runWithPart('replica', true, () => next.handle().subscribe(subscriber)));
  }
}
