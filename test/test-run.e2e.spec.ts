import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDatabase } from './helpers/server';

/** The test run itself (test/global-setup.mjs, test/stale-build.mjs, test/global-teardown.mjs), which jest runs in its own process. */
const PROJECT = join(__dirname, '..');

/** Runs `command` with `env` only (and PATH, HOME); answers its exit code and output. */
function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd = PROJECT,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

/** Runs an ES module's `code` in a node of its own, with `import … from 'stale-build'` meaning test/stale-build.mjs. */
function esm(code: string, env: Record<string, string> = {}) {
  const source = code.replace(`'stale-build'`, JSON.stringify(join(PROJECT, 'test', 'stale-build.mjs')));
  return run(process.execPath, ['--input-type=module', '-e', source], env);
}

describe('the e2e suites never test a stale build', () => {
  let root: string;
  const built = Date.now() / 1000 - 60;
  /** Sets the time of a file (or directory) of the project, in seconds. */
  const touch = (path: string, seconds = Date.now() / 1000) => utimesSync(join(root, path), seconds, seconds);
  const staleBecause = async () => {
    const out = await esm(
      `import { staleBecause } from 'stale-build'; console.log(JSON.stringify(staleBecause(${JSON.stringify(root)})));`,
    );
    expect(out.code).toBe(0);
    return JSON.parse(out.output) as string | null;
  };

  /** The project's files (besides tsconfig.build.json, copied from this project): what its build compiles or reads. */
  const SOURCES = [
    'src/main.ts',
    'src/platform/a.ts',
    'src/platform/a.spec.ts',
    'src/platform/b.ts',
    'migrations/1-First.ts',
    'test/harness/h.ts',
    'test/fixtures/unidempotent-money/m.ts',
    'ormconfig.ts',
    'tsconfig.json',
    'nest-cli.json',
  ];

  // A project of its own, with this project's tsconfig.build.json: every input written before its build.
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'finapi-stale-'));
    writeFileSync(join(root, 'tsconfig.build.json'), readFileSync(join(PROJECT, 'tsconfig.build.json')));
    for (const dir of ['src/platform', 'migrations', 'test/harness', 'test/fixtures/unidempotent-money', 'dist/src'])
      mkdirSync(join(root, dir), { recursive: true });
    for (const file of SOURCES) writeFileSync(join(root, file), '');
    for (const dir of [
      'src/platform',
      'src',
      'migrations',
      'test/harness',
      'test/fixtures/unidempotent-money',
      'test/fixtures',
      'test',
      '.',
    ])
      touch(dir, built - 60);
    for (const file of [...SOURCES, 'tsconfig.build.json']) touch(file, built - 60);
    writeFileSync(join(root, 'dist/finapi.js'), '');
    touch('dist/finapi.js', built);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds a build newer than everything it compiles fresh', async () => {
    expect(await staleBecause()).toBeNull();
  });

  it.each([
    'src/platform/a.ts',
    'migrations/1-First.ts',
    'test/harness/h.ts',
    'test/fixtures/unidempotent-money/m.ts',
    'ormconfig.ts',
    'tsconfig.build.json',
    'tsconfig.json',
    'nest-cli.json',
  ])('names %s when it changed after the build', async (file) => {
    touch(file);
    expect(await staleBecause()).toMatch(new RegExp(`^${file.replace(/\./g, '\\.')} changed after the build in ${root}/dist \\(`));
  });

  it('notices a deleted source by its directory (the build still holds its output)', async () => {
    unlinkSync(join(root, 'src/platform/b.ts'));
    expect(await staleBecause()).toMatch(/^src\/platform changed after the build/);
  });

  it('ignores a unit spec, which the build does not compile', async () => {
    touch('src/platform/a.spec.ts');
    expect(await staleBecause()).toBeNull();
  });

  it('says when there is no build at all', async () => {
    rmSync(join(root, 'dist'), { recursive: true });
    expect(await staleBecause()).toBe(`${root}/dist/finapi.js does not exist`);
  });

  describe('buildIfStale, which the global setup runs first', () => {
    // The project's build only writes dist/finapi.js and counts how often it ran.
    const withBuild = (script: string) =>
      writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'stale-probe', private: true, scripts: { build: script } }));
    const buildIfStale = (env: Record<string, string> = {}) =>
      esm(`import { buildIfStale } from 'stale-build'; buildIfStale(${JSON.stringify(root)});`, env);
    const write = `node -e "const fs = require('fs'); fs.appendFileSync('builds', 'x'); fs.writeFileSync('dist/finapi.js', '')"`;
    const builds = () => readFileSync(join(root, 'builds'), 'utf8').length;

    it('runs npm run build when a source is newer, and says why', async () => {
      withBuild(write);
      touch('src/platform/a.ts');
      const out = await buildIfStale();
      expect(out).toEqual({ code: 0, output: expect.stringContaining('The build is stale: src/platform/a.ts changed after the build in') });
      expect(out.output).toContain('Building (npm run build) before the suites run');
      expect(builds()).toBe(1);
      expect(await staleBecause()).toBeNull();
    });

    it('builds nothing when the build is fresh, or when FINAPI_DIST names a build of its own', async () => {
      withBuild('exit 3');
      expect(await buildIfStale()).toEqual({ code: 0, output: '' });
      touch('src/platform/a.ts');
      expect(await buildIfStale({ FINAPI_DIST: join(root, 'dist') })).toEqual({ code: 0, output: '' });
    });

    it('stops the run when the build fails', async () => {
      withBuild('exit 3');
      touch('src/platform/a.ts');
      const out = await buildIfStale();
      expect(out.code).not.toBe(0);
      expect(out.output).toContain('npm run build failed (exit 3); the suites did not run');
    });
  });
});

describe('TEST_DATABASE_URL: a run on a server of its own', () => {
  it('drops every database it created, connections left open included, and only those', async () => {
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const dir = mkdtempSync(join(tmpdir(), 'finapi-run-'));
    try {
      // A database of another run on the same server (this one's): it must stay.
      const other = new URL(await createDatabase()).pathname.slice(1);
      const report = join(dir, 'report.json');
      const jest = await run(
        process.execPath,
        [join(PROJECT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--testMatch', '**/test/fixtures/test-run/*.ts'],
        // This run's build as it is (FINAPI_DIST: never rebuilt under the suites running beside this one).
        {
          TEST_DATABASE_URL: process.env.TEST_DATABASE_URL!,
          FINAPI_DIST: process.env.FINAPI_DIST ?? join(PROJECT, 'dist'),
          TEST_RUN_REPORT: report,
        },
      );
      expect(jest).toEqual({ code: 0, output: expect.stringContaining('1 passed') });
      const { names, template } = JSON.parse(readFileSync(report, 'utf8')) as { names: string[]; template?: string };
      expect(names).toHaveLength(2);
      const left = await admin.query(`SELECT datname FROM pg_database WHERE datname = ANY($1)`, [[...names, template ?? '', other]]);
      expect(left.rows).toEqual([{ datname: other }]);
    } finally {
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
