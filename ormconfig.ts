import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/platform/database/data-source-options';

/**
 * For the TypeORM CLI (`npm run migration:*`). `src/platform/database/cli.ts` sets DATABASE_URL, starting
 * the embedded server first when none is configured.
 */
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set; run the migration scripts through npm run migration:*');
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL));
