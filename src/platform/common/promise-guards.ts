import { ForbiddenException, type CanActivate, type ContextType } from '@nestjs/common';
import { FORBIDDEN_MESSAGE, GuardsConsumer } from '@nestjs/core/internal';
import { RouterExecutionContext } from '@nestjs/core/router/router-execution-context';
import { isObservable, lastValueFrom } from 'rxjs';

type GuardsFn = ReturnType<RouterExecutionContext['createGuardsFn']>;

/** A guard's answer as Nest reads it (GuardsConsumer.pickResult): a promise's value, an Observable's last value. */
function settled(answer: unknown): Promise<unknown> {
  return Promise.resolve(answer).then((value) => (isObservable(value) ? lastValueFrom(value) : value));
}

let installed = false;

/**
 * Makes Nest run a route's guards with one promise per guard that answers one, instead of three async functions per
 * request (the route's `canActivateFn`, GuardsConsumer's `tryActivate` and `pickResult`): the same guards, in the same
 * order, on the same ExecutionContext, each waited for before the next, a `false` answered with Nest's own 403 and an
 * Observable's last value taken as Nest takes it. A guard that answers at once costs no promise.
 */
export function runPromiseGuards(): void {
  if (installed) return;
  installed = true;
  const context = RouterExecutionContext.prototype;
  context.createGuardsFn = function promiseGuardsFn<TContext extends string = ContextType>(
    this: RouterExecutionContext,
    guards: CanActivate[],
    instance: object,
    callback: (...args: unknown[]) => unknown,
    contextType?: TContext,
  ): GuardsFn {
    if (!guards.length) return null;
    const consumer = (this as unknown as { guardsConsumer: GuardsConsumer }).guardsConsumer;
    const forbidden = () => new ForbiddenException(FORBIDDEN_MESSAGE);
    return (args) => {
      const executionContext = consumer.createContext(args, instance, callback);
      executionContext.setType(contextType!);
      const from = (first: number): Promise<void> | undefined => {
        for (let i = first; i < guards.length; i++) {
          const answer = guards[i].canActivate(executionContext);
          if (answer === true) continue;
          if (answer === false) throw forbidden();
          return settled(answer).then((allowed) => {
            if (!allowed) throw forbidden();
            return from(i + 1);
          });
        }
        return undefined;
      };
      try {
        return from(0) ?? Promise.resolve();
      } catch (error) {
        return Promise.reject(error as Error);
      }
    };
  };
}
