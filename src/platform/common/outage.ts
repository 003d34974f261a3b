import { sqlState } from './sql-state';

/**
 * SQLSTATEs that say the database cannot serve now, not that the request is wrong: class 08 (connection exceptions,
 * PgBouncer's `08P01` among them), 57P01–57P03 (the server shutting down, crashed or starting), 25006 (a read-only
 * standby: a failover not done yet, or a proxy that reached the wrong server), 53300 (too many connections), 3D000 (the
 * database does not exist yet), 55000 (object not in prerequisite state: a standby's `pg_is_in_recovery` writes), 57014
 * (a statement cancelled by its timeout: DB_STATEMENT_TIMEOUT_MS).
 */
const STATES = new Set(['25006', '53300', '57P01', '57P02', '57P03', '3D000', '55000', '57014']);
/** Node's socket errors: no server there, or the connection broke. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** pg's and pg-pool's words for a connection that broke or could not be had. */
const MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Query read timeout|server closed the connection|Client was closed|Cannot use a pool after calling end/i;

/** Whether `error` means the database is unreachable or cannot take writes right now: answered 503, retried later. */
export function isOutage(error: unknown): boolean {
  const state = sqlState(error) ?? '';
  if (state.startsWith('08') || STATES.has(state) || SOCKET_CODES.has(state)) return true;
  const message = error instanceof Error ? error.message : '';
  return MESSAGES.test(message);
}

/** How long without a failure before the next one counts as a new outage. */
const QUIET_MS = 30_000;

/**
 * How long the database must keep answering, without a failure, for its outage to be over. A restart's first
 * answers come while other connections still fail (PgBouncer answers `server_login_retry`'s cached error to the
 * clients that need a new server connection for a second after a failed login): the same outage, said once.
 */
export const SETTLE_MS = 5_000;

/**
 * The one log of database outages, per process: a warning when one starts (its first failure, where it was seen),
 * and one when it ends (how long it lasted, how many failures it cost); the failures between say nothing. A stack per
 * failed request and per probe buried an outage's start under hundreds of lines. It is over once the database has
 * answered for SETTLE_MS without a failure; it lasted until the first of those answers.
 */
export class OutageLog {
  /** The service's logger, set when the database module starts (DatabaseModule); silent before. */
  private logger: { warn(message: string): void } = { warn: () => undefined };
  /** An outage in progress per database: the primary's, and the read replica's (READ_DATABASE_URL), told apart. */
  private readonly open = new Map<Database, Outage>();

  useLogger(logger: { warn(message: string): void }): void {
    this.logger = logger;
  }

  /** A failure of `where` (a request, a sweep, a probe…) caused by an outage of the database `error` came from. */
  seen(error: unknown, where: string): void {
    const database = databaseOf(error);
    const now = Date.now();
    let outage = this.open.get(database);
    // One that had answered and stayed answering for SETTLE_MS was over: said so before the next one starts.
    if (outage?.answered !== undefined && now - outage.answered >= SETTLE_MS) {
      this.close(database, outage);
      outage = undefined;
    }
    if (!outage || now - outage.last > QUIET_MS) {
      outage = { since: now, last: now, failures: 0 };
      this.open.set(database, outage);
      this.logger.warn(
        `${NAMES[database]} is unavailable (${where}: ${error instanceof Error ? error.message : String(error)}); answering 503 until it is back`,
      );
    }
    outage.last = now;
    outage.failures += 1;
    outage.answered = undefined;
  }

  /** `database` answered: ends its outage in progress, if any, with its line, once it has answered for SETTLE_MS without a failure. */
  recovered(database: Database = 'primary'): void {
    const outage = this.open.get(database);
    if (!outage) return;
    const now = Date.now();
    outage.answered ??= now;
    if (now - outage.answered >= SETTLE_MS) this.close(database, outage);
  }

  inProgress(database: Database = 'primary'): boolean {
    return this.open.has(database);
  }

  private close(database: Database, outage: Outage): void {
    this.open.delete(database);
    const lasted = (outage.answered ?? outage.last) - outage.since;
    this.logger.warn(
      `${NAMES[database]} is back after ${(lasted / 1000).toFixed(1)} s; ${outage.failures} failure(s) answered 503 meanwhile`,
    );
  }
}

interface Outage {
  since: number;
  /** Its latest failure. */
  last: number;
  failures: number;
  /** The first answer since its latest failure. */
  answered?: number;
}

type Database = 'primary' | 'replica';
const NAMES: Record<Database, string> = { primary: 'The database', replica: 'The read replica (READ_DATABASE_URL)' };

/** Marks an error as the read replica's (Database does, for a search's statement there), so its outage is told apart. */
export function fromReplica<E>(error: E): E {
  if (error instanceof Error) Object.assign(error, { database: 'replica' });
  return error;
}

function databaseOf(error: unknown): Database {
  return (error as { database?: unknown } | undefined)?.database === 'replica' ? 'replica' : 'primary';
}

export const outages = new OutageLog();

/**
 * Logs the failure of background work (a sweep, a dispatch, a reaction after a commit): an outage once, in the outage
 * log; anything else as the error it is, with `message`.
 */
export function logFailure(logger: { error(message: string): void }, where: string, error: unknown, message: string): void {
  if (isOutage(error)) outages.seen(error, where);
  else logger.error(message);
}
