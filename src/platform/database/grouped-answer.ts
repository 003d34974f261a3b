import type { PoolClient } from 'pg';

/**
 * A keyed request's posting can be written by a group only if the request's stored answer commits with it. The request
 * then runs again as one unit of work of its own (IdempotencyInterceptor), which stores its answer the usual way: thrown
 * when a group did not take the posting (a coin or the key held elsewhere, a group that failed), when the request opens a
 * transaction of its own, or when it posts a second time.
 */
export class AnswerAlone extends Error {
  constructor(reason: string) {
    super(`This keyed request runs as one unit of work: ${reason}`);
  }
}

/** What a request answered: kept with its Idempotency-Key. */
export interface GivenAnswer {
  status: number;
  /** The answer's JSON text, as it is sent. */
  body: string;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Whoever awaits it handles a rejection; one nobody awaits (a request that failed on its own) is not an error.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * The meeting point of a keyed request and the group that writes its posting (group commit with an Idempotency-Key):
 *
 * 1. the group writes the posting and `join`s the request with what it wrote, before its COMMIT;
 * 2. the request, handed that operation by `ledger.execute` (`written`), builds its answer as usual and `give`s it back;
 * 3. the group stores every answer it was given in its transaction, commits, and says so (`commit`, or `abort`: the
 *    request then runs again on its own, AnswerAlone); the request sends its answer only once it is committed.
 *
 * So a replay after a crash answers exactly what was answered, and an answer is never sent for a posting rolled back.
 */
export class GroupedAnswer<T = unknown> {
  private readonly writtenBy = deferred<T>();
  private readonly given = deferred<GivenAnswer>();
  private readonly committedBy = deferred<void>();
  /** The operation the group wrote for the request (null when its plan wrote nothing); set by `join`. */
  operationId: string | null = null;
  joined = false;
  answered = false;
  /**
   * The group's connection, from `join` until the answer is given (or the group ends): the statements the request runs
   * to build its answer run there, in the group's transaction (Database.query). From the pool they could wait for a
   * connection held by work blocked on the group's own locks, while the group waits for them.
   */
  connection: PoolClient | undefined;

  constructor(
    readonly userId: string,
    readonly key: string,
    readonly hash: string,
  ) {}

  /** Group side: the request's posting is written in the group's open transaction, on `connection`. */
  join(operation: T, operationId: string | null, connection: PoolClient): void {
    this.joined = true;
    this.operationId = operationId;
    this.connection = connection;
    this.writtenBy.resolve(operation);
  }

  /** What the group wrote for the request: what `ledger.execute` answers it. */
  get written(): Promise<T> {
    return this.writtenBy.promise;
  }

  /** Group side: the request's answer, to be stored in the group's transaction. */
  get answer(): Promise<GivenAnswer> {
    return this.given.promise;
  }

  /** Request side: the answer to store. */
  give(answer: GivenAnswer): void {
    this.answered = true;
    this.connection = undefined;
    this.given.resolve(answer);
  }

  /** Request side: the request failed after its posting was written, so its group must not commit it. */
  fail(error: unknown): void {
    this.connection = undefined;
    if (this.joined && !this.answered) this.given.reject(error);
  }

  /** Group side: the group committed, the answer with it. */
  commit(): void {
    this.connection = undefined;
    this.committedBy.resolve();
  }

  /**
   * Group side: the group rolled back; the request runs again as a unit of work of its own. With `error`: whether the
   * group committed is not known (CommitUnknown) — the request answers that error (503) rather than run again.
   */
  abort(error?: unknown): void {
    this.connection = undefined;
    this.committedBy.reject(error ?? new AnswerAlone('its group was rolled back'));
  }

  /** Request side: settles once the answer is committed; rejects with AnswerAlone when its group was rolled back. */
  get committed(): Promise<void> {
    return this.committedBy.promise;
  }
}
