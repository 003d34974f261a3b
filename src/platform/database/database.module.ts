import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { Pool } from 'pg';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import { Database, NAMED_STATEMENTS } from './database';
import { connectionOptions, ConnectionSettings, dataSourceOptions } from './data-source-options';
import { DatabaseNotifications, LISTEN_SETTINGS, LISTEN_URL } from './notifications';
import { PRIMARY_POOL, primaryPoolOf } from './primary-pool';
import { READ_POOL, ReadReplicaInterceptor } from './read-replica';
import { fromReplica, outages } from '../common/outage';
import { UnitOfWork } from './unit-of-work';
import { WriteWatch } from './write-watch';

/**
 * Closes every pool — the primary's (TypeORM's data source) and the replica's — in the last phase of `app.close()`,
 * once the HTTP server has closed and background work has stopped (see the order in actuator/shutdown.ts).
 */
@Injectable()
class PoolsShutdown implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(READ_POOL) private readonly replica: Pool | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.replica?.end(), this.dataSource.isInitialized ? this.dataSource.destroy() : undefined]);
  }
}

/**
 * The replica's pool (READ_DATABASE_URL). An idle connection that breaks (the replica restarting) makes the pool emit
 * 'error': heard here, or it would end the process. The searches on it answer 503 meanwhile.
 */
function replicaPool(url: string, max: number, settings: ConnectionSettings): Pool {
  const pool = new Pool({ connectionString: url, max, application_name: 'finapi-read', ...connectionOptions(settings) });
  pool.on('error', (error) => outages.seen(fromReplica(error), 'an idle connection'));
  return pool;
}

@Global()
@Module({})
export class DatabaseModule {
  /**
   * `url`: the primary, through a pooler or not (`databasePoolMode`); `databaseListenUrl`: straight to it, for the
   * LISTEN connection (unset: `url`); `readDatabaseUrl`: a replica for searches.
   */
  static forRoot(
    url: string,
    config: Pick<
      AppConfig,
      'dbPoolSize' | 'readDatabaseUrl' | 'databaseListenUrl' | 'databasePoolMode' | 'dbConnectTimeoutMs' | 'dbStatementTimeoutMs'
    >,
  ): DynamicModule {
    const { dbPoolSize: poolSize, readDatabaseUrl: readUrl } = config;
    outages.useLogger(new Logger('Database'));
    const settings: ConnectionSettings = {
      connectTimeoutMs: config.dbConnectTimeoutMs,
      // A pooler in transaction mode refuses start-up parameters it does not know: set statement_timeout on the role there.
      statementTimeoutMs: config.databasePoolMode === 'transaction' ? 0 : config.dbStatementTimeoutMs,
    };
    return {
      module: DatabaseModule,
      imports: [
        // The migrations have run by now (prepareSchema, under their lock).
        TypeOrmModule.forRoot({
          ...dataSourceOptions(url, poolSize, settings),
          // No retries: a wrong password or an unreachable server is one line and exit 1 (each retry logged a stack);
          // whatever supervises the service (systemd, Docker, Kubernetes) restarts it.
          toRetry: () => false,
        }),
      ],
      providers: [
        UnitOfWork,
        Database,
        WriteWatch,
        DatabaseNotifications,
        { provide: LISTEN_URL, useValue: config.databaseListenUrl ?? url },
        { provide: LISTEN_SETTINGS, useValue: { connectTimeoutMs: config.dbConnectTimeoutMs } satisfies ConnectionSettings },
        // A pooler in transaction mode hands each transaction any server connection: one prepared on another is unknown there.
        { provide: NAMED_STATEMENTS, useValue: config.databasePoolMode !== 'transaction' },
        { provide: PRIMARY_POOL, useFactory: primaryPoolOf, inject: [DataSource] },
        {
          provide: READ_POOL,
          useFactory: () => (readUrl ? replicaPool(readUrl, poolSize, settings) : null),
        },
        // Only with a replica: a global interceptor puts an RxJS chain around every request.
        ...(readUrl ? [{ provide: APP_INTERCEPTOR, useClass: ReadReplicaInterceptor }] : []),
        PoolsShutdown,
      ],
      exports: [UnitOfWork, Database, WriteWatch, DatabaseNotifications, PRIMARY_POOL],
    };
  }
}
