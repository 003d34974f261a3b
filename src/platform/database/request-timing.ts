import { performance } from 'node:perf_hooks';
import { contextPart, runWithPart } from './async-context';
import type { TransactionMeta } from './transaction-meta';

/**
 * What one API request spent waiting for PostgreSQL, answered in its `Server-Timing` header; its id, for log lines;
 * and, once the access guard has resolved its principal, who it acts for (what its transactions carry by default).
 */
export interface RequestTiming {
  requestId: string;
  /** Milliseconds spent in statements, transaction starts and commits (summed; parallel statements add up). */
  dbMs: number;
  /** Statements and transaction boundaries run. */
  dbCalls: number;
  meta?: TransactionMeta;
}

function currentTiming(): RequestTiming | undefined {
  return contextPart('timing') as RequestTiming | undefined;
}

/** Runs a route handler with a fresh timing that every database call inside it adds to. */
export function withRequestTiming<T>(timing: RequestTiming, work: () => T): T {
  return runWithPart('timing', timing, work);
}

/** The id of the request running now (none outside a route handler). */
export function currentRequestId(): string | undefined {
  return currentTiming()?.requestId;
}

/** Says who the running request acts for (the access guard, once it knows the principal); nothing outside a request. */
export function setRequestMeta(meta: TransactionMeta): void {
  const timing = currentTiming();
  if (timing) timing.meta = meta;
}

/** What the running request says about itself: who it acts for once known, else its id alone; undefined outside a request. */
export function currentRequestMeta(): TransactionMeta | undefined {
  const timing = currentTiming();
  return timing && (timing.meta ?? { requestId: timing.requestId });
}

/**
 * Times a database call and adds it to the running request's timing, if any. Answers the call's own promise outside a
 * request, and one promise more inside one (an async function made two, and two turns more to settle: every statement
 * passes here).
 */
export function timedDb<T>(call: () => Promise<T>): Promise<T> {
  const timing = currentTiming();
  if (!timing) {
    try {
      return call();
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
  const started = performance.now();
  const done = () => {
    timing.dbMs += performance.now() - started;
    timing.dbCalls += 1;
  };
  let pending: Promise<T>;
  try {
    pending = call();
  } catch (error) {
    done();
    return Promise.reject(error as Error);
  }
  return pending.then(
    (value) => {
      done();
      return value;
    },
    (error: unknown) => {
      done();
      throw error;
    },
  );
}

/** Adds time spent on the database outside `timedDb` (a transaction's start and commit). */
export function addDbTime(ms: number): void {
  const timing = currentTiming();
  if (timing) timing.dbMs += ms;
}

/** The `Server-Timing` header's value: database time and calls, and the whole request, in milliseconds. */
export function serverTimingHeader(timing: RequestTiming | undefined, totalMs: number): string {
  const total = `total;dur=${totalMs.toFixed(1)}`;
  if (!timing) return total;
  return `db;dur=${timing.dbMs.toFixed(1)};desc="${timing.dbCalls} calls", ${total}`;
}
