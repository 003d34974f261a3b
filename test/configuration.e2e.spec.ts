import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, freePort, serviceEnv, stopLeftoverPostgres, waitHealthy } from './helpers/server';

const DIST = process.env.FINAPI_DIST ?? join(__dirname, '..', 'dist');
const MAIN = join(DIST, 'finapi.js');
const CLI = join(DIST, 'src', 'platform', 'database', 'cli.js');
/** Refused at once by a service that checks its configuration first; a URL nothing listens on otherwise. */
const NOWHERE = 'postgres://nobody@127.0.0.1:1/none';

interface Run {
  code: number | null;
  lines: string[];
}

/**
 * Runs a built script until it exits, or `until` says it is ready (then SIGTERM), or `ms` pass (then SIGKILL: a
 * service that should have refused to start must not stay behind).
 */
async function run(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
  until?: () => Promise<boolean>,
  ms = 60_000,
): Promise<Run> {
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // SIGTERM first: a service that started the embedded PostgreSQL stops it on its way out.
  const timer = setTimeout(() => {
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  }, ms);
  try {
    if (until && (await until())) child.kill('SIGTERM');
    const code = await exited;
    return { code, lines: output.split('\n').filter((l) => l !== '') };
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

function json(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

describe('configuration that cannot surprise', () => {
  it('refuses a variable one edit away from a setting, the service and the migration CLI alike (exit 78, one line)', async () => {
    const service = await run(MAIN, [], { ...serviceEnv(await freePort()), DATABASE_URL: NOWHERE, DATABASE_ULR: 'postgres://x@db/finapi' });
    expect(service.code).toBe(78);
    expect(service.lines).toHaveLength(1);
    expect(json(service.lines[0])).toMatchObject({
      level: 60,
      msg: 'Invalid configuration: DATABASE_ULR is not a setting of finapi; did you mean DATABASE_URL?',
    });

    const cli = await run(CLI, ['migration:show'], {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: NOWHERE,
      LOG_LEVL: 'warn',
    });
    expect(cli).toEqual({ code: 78, lines: ['Invalid configuration: LOG_LEVL is not a setting of finapi; did you mean LOG_LEVEL?'] });
  });

  it('with NODE_ENV=production and no DATABASE_URL, refuses to start (exit 78) rather than start the embedded PostgreSQL', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'finapi-production-'));
    // Where PostgreSQL's OS user may enter when we run as root, so a cluster started by mistake would be found here.
    await chmod(dataDir, 0o755);
    try {
      const refused = await run(MAIN, [], {
        ...serviceEnv(await freePort()),
        NODE_ENV: 'production',
        AUDIT_CHAIN_KEY: 'a'.repeat(64),
        DATA_DIR: dataDir,
      });
      expect(refused.code).toBe(78);
      expect(refused.lines.map((l) => json(l)?.msg)).toEqual([
        'Invalid configuration: DATABASE_URL must be set when NODE_ENV is production (postgres://user:password@host:5432/database); set EMBEDDED_POSTGRES=true to run the embedded PostgreSQL instead',
      ]);
      expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
    } finally {
      await stopLeftoverPostgres(join(dataDir, 'postgres', 'postmaster.pid'));
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('start-up output', () => {
  it('is JSON lines from the first line: where it listens and the generated password at info and warn; LOG_LEVEL=warn hides the info lines', async () => {
    const databaseUrl = await createDatabase();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { ...serviceEnv(port), DATABASE_URL: databaseUrl, ADMIN_LOGIN: '', ADMIN_PASSWORD: '', LOG_LEVEL: 'info' };
    const first = await run(MAIN, [], env, () => waitHealthy(url));
    expect(first.lines.filter((l) => !json(l))).toEqual([]);
    const logged = first.lines.map((l) => json(l)!);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 30,
        url: `http://127.0.0.1:${port}`,
        msg: `finapi listening on ${url} (Swagger UI at /swagger/ui/)`,
      }),
    );
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: expect.stringMatching(
          /^First administrator created: login admin@finapi\.local, password [\w-]{16} \(set ADMIN_PASSWORD to choose it\)$/,
        ),
      }),
    );

    const quiet = await run(MAIN, [], { ...env, LOG_LEVEL: 'warn' }, () => waitHealthy(url));
    expect(quiet.lines.filter((l) => !json(l))).toEqual([]);
    expect(quiet.lines.filter((l) => (json(l)!.level as number) < 40)).toEqual([]);
  }, 180_000);

  it('says in one line, without a stack, that the database refused the password or cannot be reached (exit 1)', async () => {
    const wrong = new URL(await createDatabase());
    wrong.password = 'not-the-password';
    for (const databaseUrl of [wrong.toString(), NOWHERE]) {
      const failed = await run(MAIN, [], { ...serviceEnv(await freePort()), DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
      expect(failed.code).toBe(1);
      const faults = failed.lines.filter((l) => (json(l)?.level as number) >= 50 || !json(l));
      expect(faults).toHaveLength(1);
      expect(json(faults[0])).toEqual(
        expect.objectContaining({
          level: 60,
          msg: expect.stringMatching(
            /^finapi failed to start: (password authentication failed for user "finapi"|connect ECONNREFUSED 127\.0\.0\.1:1)$/,
          ),
        }),
      );
      expect(faults[0]).not.toContain('"err"');
    }
  }, 120_000);

  it('issue 46: with NODE_ENV=production refuses to start with only the log sender, and refuses a bad sender setting (exit 78, naming it)', async () => {
    const production = { NODE_ENV: 'production', AUDIT_CHAIN_KEY: 'a'.repeat(64), DATABASE_URL: NOWHERE };
    const refusal = async (env: Record<string, string>) => {
      const refused = await run(MAIN, [], { ...serviceEnv(await freePort()), ...env });
      return { code: refused.code, msg: refused.lines.map((l) => json(l)?.msg) };
    };
    expect(await refusal(production)).toEqual({
      code: 78,
      msg: [
        "Invalid configuration: SMTP_URL or SMS_GATEWAY_URL must be set when NODE_ENV is production: codes would reach no one but the log sender's file; set MESSAGES_LOG_ONLY=true to run so on purpose",
      ],
    });
    expect(await refusal({ SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'no-reply@example.com', DATABASE_URL: NOWHERE })).toEqual({
      code: 78,
      msg: [
        'Invalid configuration: SMTP_URL must be a URL like smtp://user:password@mail.example.com:587 (STARTTLS) or smtps://…:465 (TLS)',
      ],
    });
    expect(
      await refusal({ SMTP_URL: 'smtp://mail.example.com?starttls=maybe', MAIL_FROM: 'no-reply@example.com', DATABASE_URL: NOWHERE }),
    ).toEqual({
      code: 78,
      msg: ['Invalid configuration: SMTP_URL ?starttls= must be one of required, optional, off, got "maybe"'],
    });
    expect(await refusal({ SMTP_URL: 'smtp://mail.example.com', DATABASE_URL: NOWHERE })).toEqual({
      code: 78,
      msg: ['Invalid configuration: MAIL_FROM must be set with SMTP_URL: the From of every e-mail, e.g. finapi <no-reply@example.com>'],
    });
    expect(await refusal({ SMS_GATEWAY_URL: 'https://sms.example.com/send', DATABASE_URL: NOWHERE })).toEqual({
      code: 78,
      msg: [
        'Invalid configuration: SMS_GATEWAY_SECRET must be set with SMS_GATEWAY_URL (16 to 256 printable characters): it signs each request',
      ],
    });
    expect(await refusal({ ...production, MESSAGES_LOG_ONLY: 'yes' })).toEqual({
      code: 78,
      msg: ['Invalid configuration: MESSAGES_LOG_ONLY must be true or false, got "yes"'],
    });
  }, 120_000);
});
