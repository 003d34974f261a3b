// npm test's checks before the suites (`npm run checks`): lint, the type check of everything (specs included) and the
// build, side by side. Each is its own single-threaded process, so together they use the machine's cores; each one's
// output is shown when it ends, and any failure fails the whole.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const steps = [
  ['build', npm, ['run', 'build']],
  ['type check', process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit']],
  ['lint', npm, ['run', 'lint']],
];

const started = Date.now();
const results = await Promise.all(
  steps.map(
    ([name, command, args]) =>
      new Promise((resolve) => {
        const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('error', (error) => (output += `${error.message}\n`));
        child.on('close', (code) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(
            `${output.trimEnd() ? `${output.trimEnd()}\n` : ''}${code === 0 ? 'ok' : 'FAILED'}: ${name} (${seconds} s)\n`,
          );
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
