import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { ParamsTokenFactory } from '@nestjs/core/internal';
import { RouterExecutionContext } from '@nestjs/core/router/router-execution-context';

/**
 * A pipe that can often decide at once: `transformNow` answers `{ value }` — exactly what its `transform` would
 * resolve to — or undefined when it cannot tell without `transform` (which then runs as usual, from the start). It must
 * not change anything it is given: when a request's pipes cannot all decide at once, they run again as Nest runs them.
 */
export interface ImmediatePipe extends PipeTransform {
  transformNow(value: unknown, metadata: ArgumentMetadata): { value: unknown } | undefined;
}

function isImmediate(pipe: PipeTransform): pipe is ImmediatePipe {
  return typeof (pipe as Partial<ImmediatePipe>).transformNow === 'function';
}

type PipesFn = ReturnType<RouterExecutionContext['createPipesFn']>;

let installed = false;

/**
 * Makes Nest give a route's handler its arguments without a promise when every pipe of its params is an ImmediatePipe
 * and each decides at once (the validation pipe on a body that passes, the principal, a path param). Nest settles each
 * param through four async functions (getParamValue, PipesConsumer.apply, applyPipes…): for a money route, about a
 * sixth of the promises a request makes, each paying AsyncLocalStorage's hooks. Anything else — a pipe that is not an
 * ImmediatePipe, one that cannot decide, a thenable value, an extractor or a pipe that throws — runs as Nest runs it
 * (the same pipes in the same order, so the same 400 from the same first error), and the handler is called as before.
 */
export function runImmediatePipes(): void {
  if (installed) return;
  installed = true;
  const context = RouterExecutionContext.prototype;
  const createPipesFn = context.createPipesFn;
  const tokens = new ParamsTokenFactory();
  context.createPipesFn = function immediatePipesFn(this: RouterExecutionContext, pipes, paramsOptions): PipesFn {
    const asNest = createPipesFn.call(this, pipes, paramsOptions);
    if (!asNest) return asNest;
    const params = paramsOptions.map(({ index, extractValue, type, data, metatype, pipes: own, schema }) => {
      const pipeable = this.isPipeable(type);
      return {
        index,
        extractValue: extractValue as (req: unknown, res: unknown, next: unknown) => unknown,
        pipes: pipeable ? pipes.concat(own) : [],
        pipeable,
        // What PipesConsumer.apply hands each pipe.
        metadata: {
          metatype: metatype as ArgumentMetadata['metatype'],
          type: tokens.exchangeEnumForString(
            type as Parameters<ParamsTokenFactory['exchangeEnumForString']>[0],
          ) as ArgumentMetadata['type'],
          data: data as ArgumentMetadata['data'],
          schema,
        } as ArgumentMetadata,
      };
    });
    if (!params.every((p) => p.pipes.every(isImmediate))) return asNest;
    // A request whose pipes cannot all decide goes to Nest's function, which sets every param again.
    return (args, req, res, next) => {
      try {
        for (const param of params) {
          let value = param.extractValue(req, res, next);
          if (param.pipeable && typeof (value as { then?: unknown } | null | undefined)?.then === 'function')
            return asNest(args, req, res, next);
          for (const pipe of param.pipes as ImmediatePipe[]) {
            const decided = pipe.transformNow(value, param.metadata);
            if (!decided) return asNest(args, req, res, next);
            value = decided.value;
          }
          args[param.index] = value;
        }
      } catch {
        return asNest(args, req, res, next);
      }
      return undefined;
    };
  };
}
