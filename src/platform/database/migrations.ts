import { Client } from 'pg';
import type { Logger as PinoLogger } from 'pino';
import { DataSource, DataSourceOptions, Logger as TypeOrmLogger, Migration, MigrationExecutor } from 'typeorm';
import { connectionOptions, dataSourceOptions } from './data-source-options';

/**
 * The session-level advisory lock every migration run takes ('finapi' in ASCII): instances started together on one
 * database, the migration job and the TypeORM CLI apply each migration once, one after the other.
 */
export const MIGRATION_LOCK_KEY = '112603009478761';

/** How an operator runs the migrations from a built (production) installation; named in the refusal below. */
export const MIGRATION_JOB_COMMAND = 'npm run migration:run';

/** A migration failed: the start stops with this one line (which migration, PostgreSQL's words), never retried. */
export class MigrationError extends Error {}

/** MIGRATIONS_RUN=false and the database lacks migrations: the instance refuses to start rather than fail on SQL later. */
export class MigrationsPendingError extends Error {}

/**
 * A DataSource whose migration commands (run, revert, show) hold the migration lock, taken on a connection of its own
 * before anything looks at what is pending: the service's start, `npm run migration:*` and `npx typeorm … -d
 * dist/ormconfig.js` all use it. Whoever comes second waits, then finds nothing to do.
 */
export class MigrationDataSource extends DataSource {
  constructor(
    options: DataSourceOptions,
    /** Told when another session holds the lock and this one waits for it. */
    private readonly onLockWait: () => void = () => undefined,
  ) {
    super(options);
  }

  override runMigrations(options?: Parameters<DataSource['runMigrations']>[0]): Promise<Migration[]> {
    return this.withMigrationLock(() => super.runMigrations(options));
  }

  override undoLastMigration(options?: Parameters<DataSource['undoLastMigration']>[0]): Promise<void> {
    return this.withMigrationLock(() => super.undoLastMigration(options));
  }

  override showMigrations(): Promise<boolean> {
    return this.withMigrationLock(() => super.showMigrations());
  }

  /** The migrations not recorded in the database (read under the lock: a run in progress is waited for). */
  pendingMigrations(): Promise<Migration[]> {
    return this.withMigrationLock(() => new MigrationExecutor(this).getPendingMigrations());
  }

  private async withMigrationLock<T>(work: () => Promise<T>): Promise<T> {
    // Its own connection, not one of the pool's: a session lock must stay on one server session (never behind a
    // transaction-mode pooler), and the pool's connections run the migrations meanwhile.
    const client = new Client({
      connectionString: (this.options as { url?: string }).url,
      application_name: 'finapi-migrations',
      ...connectionOptions(),
    });
    // A connection that breaks emits 'error' besides failing its query: heard, or it would end the process.
    client.on('error', () => undefined);
    await client.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [MIGRATION_LOCK_KEY]);
      if (!rows[0].locked) {
        this.onLockWait();
        await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      }
      return await work();
    } finally {
      // Ending the session releases the lock, even when the unlock itself cannot be sent.
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  }
}

/** TypeORM's messages about migrations on the service's logger (TypeORM would print them as console text). */
class MigrationLogger implements TypeOrmLogger {
  constructor(private readonly logger: PinoLogger) {}
  logQuery(): void {}
  logQueryError(): void {}
  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ time, query: query.slice(0, 200) }, 'Slow migration query');
  }
  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }
  logMigration(message: string): void {
    this.logger.debug(message);
  }
  log(_level: 'log' | 'info' | 'warn', message: unknown): void {
    this.logger.debug(String(message));
  }
}

/**
 * Before the app starts: with `run` (MIGRATIONS_RUN, the default) applies the pending migrations under the lock and
 * logs which; without, refuses to start when any is pending. A failed migration throws a MigrationError of one line.
 */
export async function prepareSchema(url: string, run: boolean, log: PinoLogger): Promise<void> {
  const logger = log.child({ context: 'Migrations' });
  const source = new MigrationDataSource({ ...dataSourceOptions(url, 2), logger: new MigrationLogger(logger) }, () =>
    logger.info('Waiting for the migration lock: another instance or job is migrating this database'),
  );
  await source.initialize();
  try {
    if (!run) {
      const pending = await source.pendingMigrations();
      if (pending.length) {
        throw new MigrationsPendingError(
          `The database lacks ${pending.length} migration(s) (${pending.map((m) => m.name).join(', ')}) and MIGRATIONS_RUN=false: ` +
            `run \`${MIGRATION_JOB_COMMAND}\` with this DATABASE_URL first, or start with MIGRATIONS_RUN=true`,
        );
      }
      return;
    }
    let applied: Migration[];
    try {
      applied = await source.runMigrations({ transaction: 'each' });
    } catch (error) {
      // Each migration commits on its own, so the first one still pending is the one that failed.
      const failed = await source.pendingMigrations().then(
        (pending) => pending[0]?.name,
        () => undefined,
      );
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      throw new MigrationError(`Migration ${failed ?? '(unknown)'} failed: ${reason}`);
    }
    const names = applied.map((m) => m.name);
    logger.info({ migrations: names }, names.length ? `Applied ${names.length} migration(s)` : 'No migrations pending');
  } finally {
    await source.destroy();
  }
}
