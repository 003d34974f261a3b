// The e2e suites run the built service (dist/): a run whose build is older than its sources would test stale code.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the build reads: the roots of tsconfig.build.json's `include` (a pattern up to its first wildcard), and the
 * configuration that decides how it compiles. Directories count too: deleting or renaming a file changes its
 * directory's time, and the build would still hold that file's old output.
 */
function inputs(root) {
  const include = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')).include ?? [];
  const roots = include.map((pattern) => pattern.split('*')[0].replace(/\/$/, '')).filter(Boolean);
  return [...new Set(roots), 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'scripts/bundle.mjs'];
}

/** The newest of `path` and everything under it that the build reads (unit specs are not built): [time in ms, path]. */
function newest(path, best = [0, '']) {
  if (!existsSync(path)) return best;
  const stat = statSync(path);
  if (stat.isDirectory()) {
    if (stat.mtimeMs > best[0]) best = [stat.mtimeMs, path];
    for (const name of readdirSync(path)) best = newest(join(path, name), best);
  } else if (!path.endsWith('.spec.ts') && stat.mtimeMs > best[0]) {
    best = [stat.mtimeMs, path];
  }
  return best;
}

/** Why the build in `dist` is stale (a sentence), or null when it is newer than every input of the project in `root`. */
export function staleBecause(root, dist = join(root, 'dist')) {
  const main = join(dist, 'finapi.js');
  if (!existsSync(main)) return `${main} does not exist`;
  const built = statSync(main).mtimeMs;
  let found = [0, ''];
  for (const input of inputs(root)) found = newest(join(root, input), found);
  const [time, path] = found;
  if (time <= built) return null;
  return `${path.slice(root.length + 1)} changed after the build in ${dist} (${new Date(time).toISOString()} > ${new Date(built).toISOString()})`;
}

/** Runs `npm run build` in `root` when its dist/ is stale, saying why on stderr; throws when the build fails. */
export function buildIfStale(root) {
  if (process.env.FINAPI_DIST) return; // a build of one's own choosing, e.g. another branch's
  const reason = staleBecause(root);
  if (!reason) return;
  process.stderr.write(`\nThe build is stale: ${reason}. Building (npm run build) before the suites run…\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status ?? build.signal}); the suites did not run`);
  const still = staleBecause(root);
  if (still) throw new Error(`Still stale after npm run build: ${still}`);
}
