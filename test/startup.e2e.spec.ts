import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, freePort, serviceEnv, waitHealthy } from './helpers/server';

const ROOT = join(__dirname, '..');

/** `npm run start:prod`'s command: what production, the container (its CMD is the same) and the tests run. */
function productionCommand(): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  return scripts['start:prod'].split(' ');
}

// Counts the JavaScript files Node compiles (CommonJS: each goes through Module.prototype._compile) and writes the
// count when the process exits.
const COUNTER = `
const Module = require('node:module');
const compile = Module.prototype._compile;
const files = [];
Module.prototype._compile = function (content, filename) {
  files.push(filename);
  return compile.apply(this, arguments);
};
process.on('exit', () => require('node:fs').writeFileSync(process.env.COMPILED_FILES, JSON.stringify(files)));
`;

describe('cold start (issue 33: healthy within 3 s of a cold start)', () => {
  it('start:prod runs the bundle, one file: a start to healthy compiles a handful of files, not the ~1,600 modules of the build and its packages', async () => {
    const [program, ...args] = productionCommand();
    expect(program).toBe('node');
    expect(args).toEqual(['--max-semi-space-size=16', '--heap-growing-percent=100', 'dist/finapi.js']);

    const dir = await mkdtemp(join(tmpdir(), 'finapi-startup-'));
    const counter = join(dir, 'counter.js');
    const report = join(dir, 'compiled.json');
    await writeFile(counter, COUNTER);
    const port = await freePort();
    const child = spawn(process.execPath, ['--require', counter, ...args], {
      cwd: ROOT,
      env: { ...serviceEnv(port), DATABASE_URL: await createDatabase(), COMPILED_FILES: report },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      expect({ healthy: await waitHealthy(`http://127.0.0.1:${port}`, child), output }).toEqual({
        healthy: true,
        output: expect.any(String),
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const files = JSON.parse(readFileSync(report, 'utf8')) as string[];
      expect(files[0]).toBe(join(ROOT, 'dist', 'finapi.js'));
      // What stays outside the bundle: native and optional packages (bcrypt and its loader) and the migrations'
      // files, which TypeORM loads by path.
      const outside = files.filter((file) => !file.startsWith(join(ROOT, 'dist', 'migrations') + '/'));
      expect(outside.length).toBeLessThanOrEqual(10);
      expect(output.split('\n').filter((line) => line.startsWith('{"level":50,') || line.startsWith('{"level":60,'))).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
