import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { outages } from '../common/outage';

/** How the service's connections to PostgreSQL behave when the network or the server fails. */
export interface ConnectionSettings {
  /** A connection attempt fails after this long (DB_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** PostgreSQL cancels a statement running longer (DB_STATEMENT_TIMEOUT_MS; 0 or unset: no limit). */
  statementTimeoutMs?: number;
}

/**
 * What every connection of the service (the pools, the LISTEN connection, the migrations' lock) is opened with: TCP
 * keepalive, so a connection to a server that vanished (a crash of its host, a partition) fails within a minute or so
 * instead of hanging until the kernel's two hours; a connect timeout; and PostgreSQL's statement timeout, sent at
 * start-up (not behind a pooler in transaction mode, which refuses unknown start-up parameters: set it on the role there).
 */
export function connectionOptions(settings: ConnectionSettings = {}): Record<string, unknown> {
  return {
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    connectionTimeoutMillis: settings.connectTimeoutMs ?? 5000,
    ...(settings.statementTimeoutMs ? { statement_timeout: settings.statementTimeoutMs } : {}),
  };
}

/** One place that says how the service talks to PostgreSQL; used by the app and by ormconfig.ts. */
export function dataSourceOptions(url: string, poolSize = 20, settings: ConnectionSettings = {}): DataSourceOptions {
  const root = join(__dirname, '..', '..', '..');
  return {
    type: 'postgres',
    url,
    // The schema is written as SQL migrations; data access is SQL in repositories, so no entity classes.
    entities: [],
    migrations: [join(root, 'migrations', '*.js')],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    // A where-condition of undefined or null must never silently match every row.
    invalidWhereValuesBehavior: { null: 'throw', undefined: 'throw' },
    // `pipeline`: a statement is sent without waiting for the answers of those before it on the connection (pg's
    // pipeline mode; each still its own Sync, its own error). Code that waits for each answer runs as it would without;
    // what gains is work that does not: a transaction's BEGIN (UnitOfWork), statements sent together (Promise.all).
    extra: { max: poolSize, application_name: 'finapi', pipeline: true, ...connectionOptions(settings) },
    // An idle connection that breaks (the server restarting) makes the pool emit 'error': said once per outage.
    poolErrorHandler: (error: unknown) => outages.seen(error, 'an idle pool connection'),
  };
}
