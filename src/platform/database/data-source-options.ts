import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';

/** One place that says how the service talks to PostgreSQL; used by the app and by ormconfig.ts. */
export function dataSourceOptions(url: string, poolSize = 20): DataSourceOptions {
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
    extra: { max: poolSize, application_name: 'finapi', connectionTimeoutMillis: 5000 },
  };
}
