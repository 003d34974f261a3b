import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createDatabase } from './server';

/**
 * Runs the built harness `test/harness/<name>.js` on a fresh database and answers the JSON it printed last
 * (its observations, for the suite to assert on). Throws with its output when it fails.
 */
export async function harnessObservations<T = any>(name: string, timeout = 60_000): Promise<T> {
  const harness = join(process.env.FINAPI_DIST ?? join(__dirname, '..', '..', 'dist'), 'test', 'harness', `${name}.js`);
  const databaseUrl = await createDatabase();
  const run = spawnSync(process.execPath, [harness], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
    timeout,
  });
  if (run.status !== 0) throw new Error(`the harness failed (${run.status}):\n${run.stderr}\n${run.stdout}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!);
}
