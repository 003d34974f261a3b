import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { Pool } from 'pg';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import { Database, NAMED_STATEMENTS } from './database';
import { dataSourceOptions } from './data-source-options';
import { DatabaseNotifications, LISTEN_URL } from './notifications';
import { PRIMARY_POOL, primaryPoolOf } from './primary-pool';
import { READ_POOL, ReadReplicaInterceptor } from './read-replica';
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

@Global()
@Module({})
export class DatabaseModule {
  /**
   * `url`: the primary, through a pooler or not (`databasePoolMode`); `databaseListenUrl`: straight to it, for the
   * LISTEN connection (unset: `url`); `readDatabaseUrl`: a replica for searches.
   */
  static forRoot(
    url: string,
    config: Pick<AppConfig, 'dbPoolSize' | 'readDatabaseUrl' | 'databaseListenUrl' | 'databasePoolMode'>,
  ): DynamicModule {
    const { dbPoolSize: poolSize, readDatabaseUrl: readUrl } = config;
    return {
      module: DatabaseModule,
      imports: [
        // The migrations have run by now (prepareSchema, under their lock).
        TypeOrmModule.forRoot({
          ...dataSourceOptions(url, poolSize),
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
        // A pooler in transaction mode hands each transaction any server connection: one prepared on another is unknown there.
        { provide: NAMED_STATEMENTS, useValue: config.databasePoolMode !== 'transaction' },
        { provide: PRIMARY_POOL, useFactory: primaryPoolOf, inject: [DataSource] },
        {
          provide: READ_POOL,
          useFactory: () => (readUrl ? new Pool({ connectionString: readUrl, max: poolSize, application_name: 'finapi-read' }) : null),
        },
        // Only with a replica: a global interceptor puts an RxJS chain around every request.
        ...(readUrl ? [{ provide: APP_INTERCEPTOR, useClass: ReadReplicaInterceptor }] : []),
        PoolsShutdown,
      ],
      exports: [UnitOfWork, Database, WriteWatch, DatabaseNotifications, PRIMARY_POOL],
    };
  }
}
