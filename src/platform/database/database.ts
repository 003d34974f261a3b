import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Pool, PoolClient, Query, QueryResult } from 'pg';
import { fromReplica, outages } from '../common/outage';
import { PRIMARY_POOL } from './primary-pool';
import { READ_POOL, replicaAllowed } from './read-replica';
import { timedDb } from './request-timing';
import { currentTransaction, groupConnection } from './transaction-context';
import { WriteWatch } from './write-watch';

/** Above this many matches a search's total is the planner's estimate rather than an exact count. */
export const EXACT_COUNT_LIMIT = 1_000;

/** How a statement is sent. */
export interface QueryOptions {
  /**
   * Send it as a named prepared statement: each connection parses and plans it once and then only binds and
   * runs it. For the hot statements of money flows, whose planning would cost more than their execution. The
   * SQL's text names it, so only statements with a bounded number of texts (no values in the text) may say so.
   * Ignored behind a pooler in transaction mode (see NAMED_STATEMENTS).
   */
  prepare?: boolean;
}

/**
 * Whether `prepare` may name statements: not behind a pooler in transaction mode (DATABASE_POOL_MODE=transaction), where a
 * statement prepared in one transaction's server connection is unknown to the next one's (and pg, which remembers it
 * per client connection, would not prepare it again).
 */
export const NAMED_STATEMENTS = Symbol('NAMED_STATEMENTS');

/** The name of a prepared statement: its text's digest (the same on every connection and every node). */
function statementName(sql: string): string {
  return `s_${createHash('sha1').update(sql).digest('base64url')}`;
}

/**
 * A PostgreSQL array literal (`{a,b,NULL}`) of values that need no quoting, for one array parameter: `pg` would escape
 * and quote every element of an array (two regular expressions and a copy each), which a group's posting pays for
 * hundreds of times. Only for values the service made or read from the database in a form known to hold no quote,
 * backslash, comma, brace or space: uuids, integers, serials, decimal text (Money.toFixed). Free text stays an array.
 */
export function arrayLiteral(values: readonly (string | number | null | undefined)[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i) literal += ',';
    literal += value == null ? 'NULL' : value;
  }
  return `${literal}}`;
}

/** pg's Query, whose `name` (a prepared statement's, from its config) @types/pg leaves out. */
type NamedQuery = Query & { name?: string };

/**
 * Sends a statement: on a connection, as a pg Query made from its text. `client.query(config)` copies a config object
 * through `Object.getOwnPropertyDescriptors` and `Object.defineProperties` (about 5 µs a statement) and wraps its promise
 * in a second one; a Query made from the text and given its callback copies nothing. On the pool (no transaction, off
 * the money flows' path), as a config: the pool installs its own callback, which gives the connection back.
 */
function send(open: PoolClient | undefined, pool: Pool, sql: string, params: unknown[], name: string | undefined): Promise<QueryResult> {
  if (!open) return pool.query(name ? { text: sql, values: params, name } : { text: sql, values: params });
  return new Promise<QueryResult>((resolve, reject) => {
    const query: NamedQuery = new Query(sql, params, (error: Error | undefined, result: QueryResult) =>
      error ? reject(error) : resolve(result),
    );
    if (name) query.name = name;
    open.query(query);
  });
}

export interface RowCount {
  total: number;
  exact: boolean;
}

/**
 * How repositories run SQL: inside the open transaction when there is one (see UnitOfWork),
 * else on the pool. Only repositories and the ledger kernel use it (an ESLint rule says so).
 */
@Injectable()
export class Database {
  private readonly names = new Map<string, string>();

  constructor(
    @Inject(PRIMARY_POOL) private readonly pool: Pool,
    private readonly writes: WriteWatch,
    @Inject(READ_POOL) private readonly replica: Pool | null,
    @Inject(NAMED_STATEMENTS) private readonly namedStatements: boolean,
  ) {}

  /**
   * Runs SQL and returns its rows: in the open transaction, else in the transaction of the group waiting for the
   * request's answer (see GroupedAnswer.connection), else on the pool (or, for a search, on the replica).
   */
  async query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<T[]> {
    const transaction = currentTransaction();
    if (transaction?.beginFailed) throw transaction.beginFailed;
    const open = transaction?.client ?? groupConnection();
    if (!open && this.replica && replicaAllowed() && /^\s*(?:SELECT|EXPLAIN)\b/i.test(sql)) {
      const replica = this.replica;
      try {
        const rows = (await timedDb(() => replica.query(sql, params))).rows as T[];
        if (outages.inProgress('replica')) outages.recovered('replica');
        return rows;
      } catch (error) {
        throw fromReplica(error);
      }
    }
    const name = options.prepare && this.namedStatements ? this.nameOf(sql) : undefined;
    let result: QueryResult;
    try {
      result = await timedDb(() => send(open, this.pool, sql, params, name));
    } catch (error) {
      // As pg does for its own promises: the error's stack then leads back to the statement's caller, not to the socket.
      if (error instanceof Error) Error.captureStackTrace(error);
      throw error;
    }
    this.writes.ran(sql);
    return result.rows as T[];
  }

  /**
   * Runs SQL on the pool, never in the open transaction or a group's: for a look that must not join either (whether a
   * transaction whose COMMIT answer was lost committed: UnitOfWork.onCommitUnknown).
   */
  async queryPool<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await timedDb(() => this.pool.query(sql, params))).rows as T[];
  }

  private nameOf(sql: string): string {
    let name = this.names.get(sql);
    if (!name) {
      name = statementName(sql);
      this.names.set(sql, name);
    }
    return name;
  }

  /**
   * Counts the rows of `FROM … WHERE …` exactly up to EXACT_COUNT_LIMIT; beyond it answers the
   * planner's estimate, so a first page over millions of rows costs what it costs over thousands.
   */
  async countRows(fromWhere: string, params: unknown[]): Promise<RowCount> {
    const [{ n }] = await this.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 ${fromWhere} LIMIT ${EXACT_COUNT_LIMIT + 1}) t`,
      params,
    );
    if (n <= EXACT_COUNT_LIMIT) return { total: n, exact: true };
    return this.estimateRows(fromWhere, params);
  }

  /** The planner's estimate of the rows of `FROM … WHERE …`, for a count known to exceed EXACT_COUNT_LIMIT. */
  async estimateRows(fromWhere: string, params: unknown[]): Promise<RowCount> {
    return { total: Math.max(EXACT_COUNT_LIMIT + 1, await this.plannedRows(fromWhere, params)), exact: false };
  }

  /** The planner's estimate of the rows of `FROM … WHERE …` (no rows are read). */
  async plannedRows(fromWhere: string, params: unknown[]): Promise<number> {
    const [plan] = await this.query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(
      `EXPLAIN (FORMAT JSON) SELECT 1 ${fromWhere}`,
      params,
    );
    return Math.round(plan['QUERY PLAN'][0].Plan['Plan Rows']);
  }
}
