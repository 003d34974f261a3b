/**
 * The start-up benchmark (issue 33): `npm run bench:startup`. How long a cold start of the production command
 * (`npm run start:prod`'s, read from package.json) takes to answer `GET /api/v1/actuator/health` with 200, on a
 * database already migrated (an external PostgreSQL: the embedded one in a temporary directory, started once and
 * kept out of the figure). One start migrates and creates the administrator first; then BENCH_STARTUP_RUNS (10) cold
 * starts, one at a time, each from spawning Node to its first 200 (polled every 10 ms), then SIGTERM. Also timed:
 * for comparison, loading the unbundled build alone (`require` of dist/src/app.factory.js, no database): what a start
 * paid before the build bundled the service into dist/finapi.js.
 * The target is 3 s. Written to bench/results/startup.json.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  fmt,
  log,
  logMachine,
  machine,
  noteLoadAverage,
  num,
  runBench,
  startDatabase,
  table,
  writeResults,
} from './common';
import { freePort } from '../src/platform/database/embedded-postgres';

const ROOT = join(__dirname, '..', '..');
const RUNS = num('BENCH_STARTUP_RUNS', 10);
const TARGET_SECONDS = 3;

/** `npm run start:prod`'s command, run by this Node. */
function productionCommand(): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const [program, ...args] = scripts['start:prod'].split(' ');
  if (program !== 'node') throw new Error(`start:prod does not run node: ${scripts['start:prod']}`);
  return args;
}

let running: ChildProcess | undefined;

async function healthy(url: string): Promise<boolean> {
  return fetch(`${url}/api/v1/actuator/health`, { signal: AbortSignal.timeout(1000) }).then(
    (r) => r.status === 200,
    () => false,
  );
}

/** CPU seconds (user + system) the process `pid` has used, from /proc (Linux). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Start {
  /** From spawning Node to the first 200 from health. */
  seconds: number;
  /** CPU time the service used until then: what a busy machine changes least. */
  cpuSeconds: number;
}

/** One cold start, timed to the first 200 from health; then SIGTERM and wait for the exit. */
async function coldStart(databaseUrl: string): Promise<Start> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, productionCommand(), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_LOGIN,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      AUDIT_CHAIN_KEY: 'startup-bench-key-0123456789abcdef0123456789',
      // In production the service refuses to start with nowhere to send one-time codes: the bench sends none.
      MESSAGES_LOG_ONLY: 'true',
    },
    // The service logs (a refusal to start too) on stdout: kept, to say why a start failed.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running = child;
  let errors = '';
  child.stderr.on('data', (c: Buffer) => (errors += c.toString()));
  child.stdout.on('data', (c: Buffer) => (errors += c.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before it was healthy:\n${errors}`);
      if (await healthy(url)) return { seconds: Number(process.hrtime.bigint() - started) / 1e9, cpuSeconds: cpuSecondsOf(child.pid!) };
      if (Number(process.hrtime.bigint() - started) / 1e9 > 120) throw new Error('the service was not healthy within 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    running = undefined;
  }
}

/** Seconds Node takes to load the unbundled build's app (no database, no listening), for comparison with the bundle. */
function loadingSeconds(): number {
  const factory = join(__dirname, '..', 'src', 'app.factory.js');
  const run = spawnSync(
    process.execPath,
    [
      '-e',
      `const t = process.hrtime.bigint(); require(${JSON.stringify(factory)}); console.log(Number(process.hrtime.bigint() - t) / 1e9)`,
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`loading the app failed: ${run.stderr}`);
  return Number(run.stdout.trim());
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

runBench(
  'start-up benchmark',
  async () => {
    logMachine('Start-up benchmark');
    const load = noteLoadAverage();
    const urlOf = await startDatabase('finapi-bench-startup-', ['bench']);
    const databaseUrl = urlOf('bench');
    log('First start: migrations and the administrator…');
    const first = await coldStart(databaseUrl);
    log(`  healthy after ${fmt(first.seconds, 2)} s`);
    const starts: Start[] = [];
    const loads: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      starts.push(await coldStart(databaseUrl));
      loads.push(loadingSeconds());
      log(
        `  cold start ${i + 1}/${RUNS}: healthy after ${fmt(starts[i].seconds, 2)} s, ${fmt(starts[i].cpuSeconds, 2)} s of CPU (loading the unbundled build alone: ${fmt(loads[i], 2)} s)`,
      );
    }
    const summary = (values: number[]) => ({ median: median(values), max: Math.max(...values), min: Math.min(...values) });
    const figures = {
      runs: RUNS,
      coldStartSeconds: summary(starts.map((s) => s.seconds)),
      cpuSeconds: summary(starts.map((s) => s.cpuSeconds)),
      loadingSeconds: summary(loads),
      firstStartSeconds: first.seconds,
      targetSeconds: TARGET_SECONDS,
      met: Math.max(...starts.map((s) => s.seconds)) < TARGET_SECONDS,
    };
    const row = (name: string, f: { median: number; max: number; min: number }) => [name, fmt(f.median, 2), fmt(f.max, 2), fmt(f.min, 2)];
    log(
      `\n${table([
        ['', 'median s', 'max s', 'min s'],
        row('cold start → healthy', figures.coldStartSeconds),
        row('its CPU time', figures.cpuSeconds),
        row('loading the unbundled build alone', figures.loadingSeconds),
      ])}`,
    );
    log(
      `\nTarget: healthy within ${TARGET_SECONDS} s of a cold start — ${figures.met ? 'met' : 'NOT met'} (max ${fmt(figures.coldStartSeconds.max, 2)} s).`,
    );
    await writeResults('startup.json', { ...figures, machine: machine(load) });
  },
  async () => {
    running?.kill('SIGKILL');
  },
);
