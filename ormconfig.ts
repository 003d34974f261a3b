import 'reflect-metadata';
import { dataSourceOptions } from './src/platform/database/data-source-options';
import { MigrationDataSource } from './src/platform/database/migrations';

/**
 * For the TypeORM CLI: `npx typeorm migration:run|revert|show -d dist/ormconfig.js` with DATABASE_URL set (what
 * `npm run migration:*` runs, starting the embedded server first when none is configured). Its migration commands
 * hold the migration lock, like the service's start.
 */
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set; run the migration scripts through npm run migration:*');
// Behind PgBouncer in transaction mode, DATABASE_LISTEN_URL is the primary's own address: the lock is a session's.
export default new MigrationDataSource(dataSourceOptions(process.env.DATABASE_LISTEN_URL?.trim() || process.env.DATABASE_URL), () =>
  process.stdout.write('Waiting for the migration lock: another instance or job is migrating this database\n'),
);
