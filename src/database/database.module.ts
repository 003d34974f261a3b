import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Database } from './database';
import { dataSourceOptions } from './data-source-options';
import { DATABASE_URL, DatabaseNotifications } from './notifications';
import { UnitOfWork } from './unit-of-work';
import { WriteWatch } from './write-watch';

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(url: string, poolSize: number): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(url, poolSize), migrationsRun: true, retryAttempts: 3, retryDelay: 1000 })],
      providers: [UnitOfWork, Database, WriteWatch, DatabaseNotifications, { provide: DATABASE_URL, useValue: url }],
      exports: [UnitOfWork, Database, WriteWatch, DatabaseNotifications],
    };
  }
}
