// npm test's checks before the suites (the `pretest` script): lint, the type check of everything (specs included) and
// the build, side by side. Each is its own single-threaded process, so together they use the machine's cores; each
// one's output is shown when it ends, and any failure fails the whole.
//
// A second run skips what has not changed: ESLint and Prettier keep a cache of the files they passed (by content),
// the type check its incremental state, all under node_modules/.cache/finapi/ (the ESLint cache's name carries a
// hash of the configuration and the project's own rules, which ESLint's cache key does not see); the build runs
// only when dist/ is older than what it compiles (test/stale-build.mjs, the check jest's global setup makes too).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { staleBecause } from '../test/stale-build.mjs';

const root = join(import.meta.dirname, '..');
const cache = join(root, 'node_modules', '.cache', 'finapi');
const bin = (pkg, path) => [process.execPath, [join(root, 'node_modules', pkg, path)]];
const SOURCES = ['{src,test,bench,migrations}/**/*.ts', 'ormconfig.ts', 'eslint-rules', 'eslint.config.mjs'];

/** A hash of what decides ESLint's verdicts besides the files themselves. */
function lintConfigHash() {
  const hash = createHash('sha256');
  for (const file of ['eslint.config.mjs', 'package-lock.json', ...readdirSync(join(root, 'eslint-rules')).map((name) => `eslint-rules/${name}`)])
    hash.update(file).update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

const [node, eslint] = bin('eslint', 'bin/eslint.js');
const [, prettier] = bin('prettier', 'bin/prettier.cjs');
const [, tsc] = bin('typescript', 'bin/tsc');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const stale = process.env.FINAPI_DIST ? null : staleBecause(root);

const steps = [
  // One after the other, as `npm run lint` does, each with its cache.
  [
    'lint',
    [
      [node, [eslint, '--cache', '--cache-strategy', 'content', '--cache-location', join(cache, `eslint-${lintConfigHash()}`), ...SOURCES]],
      [node, [prettier, '--check', '--cache', '--cache-strategy', 'content', '--cache-location', join(cache, 'prettier'), ...SOURCES]],
    ],
  ],
  ['type check', [[node, [tsc, '-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', join(cache, 'typecheck.tsbuildinfo')]]]],
  ['build', stale ? [[npm, ['run', 'build']]] : []],
];

const run = ([command, args]) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ ok: false, output: output + `${error.message}\n` }));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });

const started = Date.now();
const results = await Promise.all(
  steps.map(async ([name, commands]) => {
    let ok = true;
    let output = '';
    for (const command of commands) {
      const result = await run(command);
      output += result.output;
      ok = result.ok;
      if (!ok) break;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const note = name === 'build' && !stale ? ' — dist/ is newer than everything it compiles, kept' : '';
    process.stdout.write(`${output.trimEnd() ? `${output.trimEnd()}\n` : ''}${ok ? 'ok' : 'FAILED'}: ${name} (${seconds} s)${note}\n`);
    return ok;
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
