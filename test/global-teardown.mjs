import { rm } from 'node:fs/promises';
import pg from 'pg';

/** Drops every database of this run (t_<run>_…) on `adminUrl`, whoever still holds a connection to it. */
export async function dropRunDatabases(adminUrl, run) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname`, [`t_${run}_`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

export default async function globalTeardown() {
  // The run's own temporary directories (the recorded answers).
  for (const dir of globalThis.__FINAPI_TEMP_DIRS__ ?? []) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  const run = globalThis.__FINAPI_RUN__;
  // A server of one's own keeps only what was there before the run; the embedded one goes away whole.
  if (run?.external) await dropRunDatabases(run.adminUrl, run.run);
  const state = globalThis.__FINAPI_PG__;
  if (!state) return;
  await state.pg.stop().catch(() => undefined);
  await rm(state.dir, { recursive: true, force: true }).catch(() => undefined);
}
