import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the running async context carries, each part set by its own module: the request's timing, the open transaction,
 * what transactions opened inside say about their request, a search's permission to read the replica, the ledger's
 * plan checks. One AsyncLocalStorage for them all: Node copies every enabled storage's value onto every promise made,
 * so five storages cost five copies per promise — about 4 % of the service's CPU per transfer (docs/benchmarks.md,
 * "The request path's CPU").
 */
export interface AsyncContext {
  timing?: unknown;
  transaction?: unknown;
  meta?: unknown;
  replica?: true;
  planChecks?: unknown;
}

const storage = new AsyncLocalStorage<AsyncContext>();

/** A part of the running context (undefined outside one). */
export function contextPart<K extends keyof AsyncContext>(part: K): AsyncContext[K] {
  return storage.getStore()?.[part];
}

/**
 * Runs `work` with `part` set to `value` and every other part as it is now — what running it under a storage of its
 * own would do.
 */
export function runWithPart<K extends keyof AsyncContext, T>(part: K, value: AsyncContext[K], work: () => T): T {
  const now = storage.getStore();
  // Every part named, each context of one shape: a spread with a computed key (`{ ...now, [part]: value }`) is
  // copied by V8's slow path, a few microseconds each time, several times a request.
  const next: { [P in keyof Required<AsyncContext>]: AsyncContext[P] } = {
    timing: now?.timing,
    transaction: now?.transaction,
    meta: now?.meta,
    replica: now?.replica,
    planChecks: now?.planChecks,
  };
  next[part] = value as (typeof next)[K];
  return storage.run(next, work);
}
