import { Inject, Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import type { Pool, PoolClient } from 'pg';
import { isOutage, logFailure, outages } from '../common/outage';
import { sqlState } from '../common/sql-state';
import { AnswerAlone } from './grouped-answer';
import { PRIMARY_POOL } from './primary-pool';
import { addDbTime } from './request-timing';
import {
  asJob,
  currentTransaction,
  currentTransactionMeta,
  TransactionContext,
  withTransaction,
  withTransactionMeta,
} from './transaction-context';
import type { TransactionMeta } from './transaction-meta';

export type { TransactionMeta };

/** A pool connection's socket (pg keeps it on its connection), to cork while statements are sent together. */
function socketOf(client: PoolClient): { cork?(): void; uncork?(): void } | undefined {
  return (client as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
}

/**
 * Corks the transaction's socket until its COMMIT (or ROLLBACK) is sent, so the statements sent with the COMMIT leave in
 * one write with it (sendWithCommit). Should the work send and wait for another statement after all, contrary to
 * sendWithCommit's rule, the socket is uncorked at the end of the event loop's turn rather than holding it forever.
 */
function corkForCommit(context: TransactionContext): void {
  if (context.corkedForCommit) return;
  const socket = socketOf(context.client);
  if (!socket?.cork) return;
  socket.cork();
  context.corkedForCommit = true;
  setImmediate(() => uncorkForCommit(context));
}

function uncorkForCommit(context: TransactionContext): void {
  if (!context.corkedForCommit) return;
  context.corkedForCommit = false;
  socketOf(context.client)?.uncork?.();
}

/** PostgreSQL SQLSTATEs that mean "try the whole transaction again". */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/**
 * A COMMIT whose answer was lost with its connection: the transaction may have committed or not. SQLSTATE 08007
 * (transaction_resolution_unknown), so it is answered as the outage it is (503) when the outcome cannot be found out.
 */
export class CommitUnknown extends Error {
  readonly code = '08007';
  /** What the transaction's work answered, to be answered if it is found committed. */
  result: unknown;
  constructor(
    override readonly cause: unknown,
    /** The operations the transaction wrote: what CommitProbes look for. */
    readonly operationIds: readonly string[],
    /** The server process the transaction ran in (pg's BackendKeyData), ended before anything is looked up. */
    readonly backendPid: number | undefined,
  ) {
    super(`The COMMIT's answer was lost (${cause instanceof Error ? cause.message : String(cause)}): whether it landed is not known yet`);
  }
}

/**
 * Finds out whether a transaction whose COMMIT answer was lost committed, from rows it wrote (its operations, say):
 * true when they are there, false when not, undefined when it cannot tell from what that transaction wrote.
 */
export type CommitProbe = (lost: CommitUnknown) => Promise<boolean | undefined>;

/** How long a lost COMMIT's outcome is looked for before the request is answered 503 (it cannot tell yet). */
const PROBE_MS = 5_000;

export interface UnitOfWorkOptions {
  meta?: TransactionMeta;
  isolation?: IsolationLevel;
  /** One attempt only: a serialization failure or deadlock is thrown, not retried (work that handed results out before its COMMIT). */
  once?: boolean;
}

/**
 * The one way to run a database transaction. Work started inside an open transaction joins it, so
 * a service can say "this is one unit" without knowing whether a route already opened one.
 * Serialization failures and deadlocks are retried a bounded number of times with jitter, so they
 * never surface as a 500.
 */
@Injectable()
export class UnitOfWork {
  private readonly logger = new Logger(UnitOfWork.name);
  private readonly probes: CommitProbe[] = [];

  constructor(@Inject(PRIMARY_POOL) private readonly pool: Pool) {}

  /** Registers a way to find out whether a transaction whose COMMIT answer was lost committed (see CommitUnknown). */
  onCommitUnknown(probe: CommitProbe): void {
    this.probes.push(probe);
  }

  async run<T>(work: () => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    if (currentTransaction()) return work();
    const meta = options.meta ?? currentTransactionMeta();
    // A keyed request whose answer a group is to store: a transaction of its own would commit apart from that answer.
    if (meta.answer) throw new AnswerAlone('it opens a transaction of its own');
    for (let attempt = 1; ; attempt++) {
      const afterCommit: TransactionContext['afterCommit'] = [];
      const onCommit: TransactionContext['onCommit'] = [];
      try {
        const result = await this.transaction(options, { meta, operationIds: [], afterCommit, onCommit, withCommit: [] }, work).catch(
          async (error: unknown) => {
            // Never guessed: the transaction's outcome is found out before anything is answered or run again.
            if (!(error instanceof CommitUnknown)) throw error;
            const landed = await this.landed(error);
            if (landed === undefined) throw error;
            if (!landed) throw error.cause;
            this.logger.warn(`A COMMIT's answer was lost, and the transaction is found committed (${error.operationIds.join(', ')})`);
            return error.result as T;
          },
        );
        for (const hook of onCommit) hook();
        this.runAfterCommit(afterCommit);
        return result;
      } catch (error) {
        if (options.once || attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
      }
    }
  }

  /**
   * One attempt: a pool connection, BEGIN, the work in its context, COMMIT (ROLLBACK when the work throws). A
   * connection whose ROLLBACK fails is broken and is destroyed rather than returned to the pool.
   */
  private async transaction<T>(options: UnitOfWorkOptions, state: Omit<TransactionContext, 'client'>, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let inside = 0;
    const client: PoolClient = await this.pool.connect();
    // A connection that breaks while checked out emits 'error' (pg-pool listens only while it is idle): unheard, that
    // is an uncaught exception that ends the process. Heard, the connection is released as broken.
    let broken: Error | undefined;
    const onError = (error: Error) => (broken ??= error);
    client.on('error', onError);
    let result: T | undefined;
    let committing = false;
    // Each part named, not `{ ...state, client }`: V8 copies a spread followed by more keys through a slow path.
    const { meta, operationIds, afterCommit, onCommit, withCommit } = state;
    const context: TransactionContext = { client, meta, operationIds, afterCommit, onCommit, withCommit };
    try {
      // The server's default (READ COMMITTED) needs no words: BEGIN alone. It is not waited for: the pool's connections
      // pipeline (pg's `pipeline` mode, dataSourceOptions), so BEGIN travels with the work's first statement and the
      // transaction costs one round trip less. Its answer comes first, so should it fail (it cannot on a connection that
      // still answers: then every statement fails with it) no later statement is sent (Database.query), and the work
      // fails here before any COMMIT.
      // The socket is corked until the running turn has sent what it will (its microtasks drained: the work's first
      // statement, unless it waits for something else first), so BEGIN and that statement leave in one write.
      const socket = socketOf(client);
      socket?.cork?.();
      process.nextTick(() => socket?.uncork?.());
      const begun = client.query(options.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation}` : 'BEGIN').then(
        () => undefined,
        (error: unknown) => void (context.beginFailed = error),
      );
      const entered = performance.now();
      try {
        result = await withTransaction(context, work);
        await begun;
        if (context.beginFailed) throw context.beginFailed;
      } finally {
        inside = performance.now() - entered;
      }
      committing = true;
      // Sent behind the statements the work did not wait for (sendWithCommit), whose answers come first: in one write.
      const commit = client.query('COMMIT');
      uncorkForCommit(context);
      let failed: { error: unknown } | undefined;
      for (const statement of context.withCommit) await statement.catch((error: unknown) => void (failed ??= { error }));
      // PostgreSQL answers the COMMIT of a transaction a statement failed in with a ROLLBACK, and no error.
      if ((await commit).command !== 'COMMIT') {
        committing = false;
        if (failed) throw failed.error;
        throw new Error('The transaction was rolled back at COMMIT: one of its statements had failed, and its error was caught');
      }
      if (outages.inProgress()) outages.recovered();
      return result;
    } catch (error) {
      if (committing && isOutage(error)) {
        broken ??= error instanceof Error ? error : new Error(String(error));
        throw Object.assign(new CommitUnknown(error, [...state.operationIds], (client as { processID?: number }).processID), { result });
      }
      if (!broken) {
        try {
          const rollback = client.query('ROLLBACK');
          uncorkForCommit(context);
          await rollback;
        } catch (rollbackError) {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        }
      }
      throw error;
    } finally {
      uncorkForCommit(context);
      client.off('error', onError);
      client.release(broken);
      // The connection, BEGIN and COMMIT: what the transaction cost beyond its own statements (timed by Database).
      addDbTime(performance.now() - started - inside);
    }
  }

  /**
   * Whether a transaction whose COMMIT answer was lost committed: its server process is ended first (a COMMIT still on
   * its way could otherwise land after the look), then the probes look for what it wrote, on new connections, for up
   * to PROBE_MS while the database is unreachable. Undefined: it cannot tell (yet).
   */
  private async landed(lost: CommitUnknown): Promise<boolean | undefined> {
    const deadline = Date.now() + PROBE_MS;
    for (;;) {
      try {
        if (lost.backendPid !== undefined) await this.endBackend(lost.backendPid);
        for (const probe of this.probes) {
          const found = await probe(lost);
          if (found !== undefined) return found;
        }
        return undefined;
      } catch (error) {
        if (!isOutage(error) || Date.now() > deadline) return undefined;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  /** Ends a server process of this service's and waits until it is gone (no-op when it is, or behind a pooler that hides it). */
  private async endBackend(pid: number): Promise<void> {
    for (let i = 0; i < 50; i++) {
      const { rows } = await this.pool.query<{ alive: boolean }>(
        `SELECT pg_terminate_backend(pid) OR true AS alive FROM pg_stat_activity WHERE pid = $1 AND datname = current_database()`,
        [pid],
      );
      if (!rows.length) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw Object.assign(new Error(`Server process ${pid} of a lost COMMIT does not end`), { code: '08007' });
  }

  /**
   * Runs `hook` once the open transaction commits (at once when none is open); never after a rollback.
   * For work that must not hold a connection or a lock: calling a provider, waking a dispatcher.
   * A hook's failure is logged by the caller's own promise handling, never the request's.
   */
  afterCommit(hook: () => void | Promise<void>): void {
    const open = currentTransaction();
    if (open) open.afterCommit.push(hook);
    else this.runAfterCommit([hook]);
  }

  /**
   * Runs a transaction's after-commit hooks in order, in one turn of the event loop after this one: out of the request's
   * path (the commit is already final), each on its own — a hook that throws or fails is logged, and neither undoes the
   * answer nor stops the hooks after it. A hook that answers at once (most: a metric counted) makes no promise; a
   * group of postings has one hook each, so they share one turn.
   */
  private runAfterCommit(hooks: TransactionContext['afterCommit']): void {
    if (!hooks.length) return;
    setImmediate(() => {
      for (const hook of hooks) {
        try {
          const pending = hook();
          if (pending) pending.catch((error: unknown) => this.hookFailed(error));
        } catch (error) {
          this.hookFailed(error);
        }
      }
    });
  }

  private hookFailed(error: unknown): void {
    logFailure(
      this.logger,
      'an after-commit hook',
      error,
      `after-commit hook failed: ${error instanceof Error ? error.stack : String(error)}`,
    );
  }

  /**
   * Ends the open transaction's work with a statement it does not wait for: the COMMIT is sent right behind it (the
   * connection pipelines) and waits for its answer instead — a statement whose result nothing reads (storing an
   * answer), saving a round trip while the transaction holds its locks. Should it fail, the transaction rolls back and
   * `run` throws its error. `send` sends it (Database.query sends at once); the socket stays corked until the COMMIT
   * is sent, so the statements and the COMMIT leave in one write. The work must send nothing after it but such statements.
   * Answers the statement's own promise, for a result read once `run` has returned (it comes before the COMMIT's answer);
   * the work must not wait for it, as nothing is sent before the work returns.
   */
  sendWithCommit<T>(send: () => Promise<T>): Promise<T> {
    const open = currentTransaction();
    if (!open) throw new Error('sendWithCommit needs an open transaction');
    corkForCommit(open);
    const statement = send();
    // Its failure is heard at COMMIT; until then it must not count as unhandled.
    statement.catch(() => undefined);
    open.withCommit.push(statement);
    return statement;
  }

  /**
   * Runs `send`, whose statements are sent at once on the open transaction's connection (Database.query sends before
   * it waits), with the connection's socket corked: they leave in one write rather than one each. Each statement is a
   * system call less, and the server reads them in one go; their answers come in order, as ever (the connection
   * pipelines). Outside a transaction, `send` simply runs.
   */
  sendTogether<T>(send: () => T): T {
    const client = currentTransaction()?.client;
    const socket = client && socketOf(client);
    socket?.cork?.();
    try {
      return send();
    } finally {
      socket?.uncork?.();
    }
  }

  /** The open transaction, if any. */
  current(): TransactionContext | undefined {
    return currentTransaction();
  }

  /**
   * Runs `work` on behalf of a request without opening a transaction; transactions opened inside carry `meta`.
   * For a route whose one write is a grouped ledger posting (`idempotent: { groupCommit: true }` (@Route)).
   */
  withMeta<T>(meta: TransactionMeta, work: () => T): T {
    return withTransactionMeta(meta, work);
  }

  /**
   * Runs the service's own work — a sweep, a reconciliation, a provider's outcome, a hook after a commit — under its
   * name rather than as the request it may have started from (see `asJob`): the ledger posts for it outside an `idempotent` @Route.
   */
  asJob<T>(job: string, work: () => T): T {
    return asJob(job, work);
  }

  /** What the open transaction, else the request (`withMeta`), says about itself. */
  meta(): TransactionMeta {
    return currentTransactionMeta();
  }
}
