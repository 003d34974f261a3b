import type { ExecutionContext, NestInterceptor } from '@nestjs/common';
import { InterceptorsConsumer } from '@nestjs/core/internal';

/**
 * An interceptor that also runs without RxJS: `next()` runs the route's pipes and handler and answers the handler's
 * result. Nest builds an Observable chain per interceptor and per request (`defer`, `mergeAll`, an async resource
 * each, `lastValueFrom`): for the money routes, whose one interceptor is the idempotency one, that chain cost more
 * CPU than the interceptor's own work (docs/benchmarks.md, "The request path's CPU").
 */
export interface PromiseInterceptor extends NestInterceptor {
  interceptAsync(context: ExecutionContext, next: () => Promise<unknown>): Promise<unknown>;
}

function isPromiseInterceptor(interceptor: NestInterceptor): interceptor is PromiseInterceptor {
  return typeof (interceptor as Partial<PromiseInterceptor>).interceptAsync === 'function';
}

let installed = false;

/**
 * Makes Nest run a route's interceptors as plain promises when every one of them is a PromiseInterceptor, in the same
 * place of the pipeline (after the guards, around the pipes and the handler) and in the same order; any other chain
 * runs as Nest runs it.
 */
export function runPromiseInterceptors(): void {
  if (installed) return;
  installed = true;
  const consumer = InterceptorsConsumer.prototype;
  const intercept = consumer.intercept;
  consumer.intercept = function promiseIntercept(this: InterceptorsConsumer, interceptors, args, instance, callback, next, type) {
    if (!interceptors?.length || !interceptors.every(isPromiseInterceptor)) {
      return intercept.call(this, interceptors, args, instance, callback, next, type);
    }
    const context = this.createContext(args, instance, callback);
    context.setType(type ?? 'http');
    const run = (i: number): Promise<unknown> =>
      i >= interceptors.length ? next() : (interceptors[i] as PromiseInterceptor).interceptAsync(context, () => run(i + 1));
    try {
      return run(0);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
