import { join } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { createDatabase } from './helpers/server';

const DIST = process.env.FINAPI_DIST ?? join(__dirname, '..', 'dist');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { dataSourceOptions } = require(join(DIST, 'src', 'platform', 'database', 'data-source-options.js')) as {
  dataSourceOptions: (url: string, poolSize?: number) => DataSourceOptions;
};

/** The schema as PostgreSQL describes it: tables and their columns, constraints and indexes, in a stable order. */
async function schemaOf(db: DataSource): Promise<string[]> {
  const columns = await db.query(
    `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> 'migrations' ORDER BY table_name, column_name`,
  );
  const constraints = await db.query(
    `SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> 'migrations' ORDER BY 1, 2`,
  );
  const indexes = await db.query(
    `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'migrations' ORDER BY 1, 2`,
  );
  return [...columns, ...constraints, ...indexes].map((row) => JSON.stringify(row));
}

/**
 * Every migration's `down` works: from the migrated schema, all of them are reverted one by one (newest first) to an
 * empty schema, then run again, and the schema is what it was. An operator rolling back a release relies on this.
 */
describe('migrations', () => {
  let db: DataSource;
  beforeAll(async () => {
    db = new DataSource(dataSourceOptions(await createDatabase(), 2));
    await db.initialize();
  });
  afterAll(() => db?.destroy());

  it('revert to an empty schema, one by one, and run again to the same schema', async () => {
    const migrated = await schemaOf(db);
    const count = db.migrations.length;
    expect(count).toBeGreaterThan(30);
    expect(await db.showMigrations()).toBe(false);
    for (let i = 0; i < count; i += 1) await db.undoLastMigration({ transaction: 'each' });
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM migrations`);
    expect(n).toBe(0);
    expect(await schemaOf(db)).toEqual([]);
    await db.runMigrations({ transaction: 'each' });
    expect(await schemaOf(db)).toEqual(migrated);
  }, 240_000);
});
