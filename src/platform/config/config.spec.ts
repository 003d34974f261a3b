import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, misspeltSetting, oneEditApart, settingNames } from './config';

const ROOT = join(__dirname, '..', '..', '..');
const KEY = 'k'.repeat(64);

/** What a container of the service sees under Docker and Kubernetes, beside the shell's usual variables. */
const CONTAINER_ENV = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/home/node',
  HOSTNAME: 'finapi-7d9c5b6f4-x2x9q',
  USER: 'node',
  PWD: '/app',
  SHELL: '/bin/sh',
  SHLVL: '1',
  TERM: 'xterm',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TZ: 'UTC',
  NODE_VERSION: '20.19.5',
  YARN_VERSION: '1.22.22',
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://mail.example.com:587',
  MAIL_FROM: 'finapi <no-reply@example.com>',
  NODE_OPTIONS: '--max-old-space-size=512',
  KUBERNETES_SERVICE_HOST: '10.96.0.1',
  KUBERNETES_SERVICE_PORT: '443',
  KUBERNETES_SERVICE_PORT_HTTPS: '443',
  KUBERNETES_PORT: 'tcp://10.96.0.1:443',
  KUBERNETES_PORT_443_TCP: 'tcp://10.96.0.1:443',
  KUBERNETES_PORT_443_TCP_ADDR: '10.96.0.1',
  KUBERNETES_PORT_443_TCP_PORT: '443',
  KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
  FINAPI_SERVICE_HOST: '10.96.12.7',
  FINAPI_SERVICE_PORT: '3000',
  FINAPI_PORT: 'tcp://10.96.12.7:3000',
  FINAPI_PORT_3000_TCP_ADDR: '10.96.12.7',
  POSTGRES_SERVICE_HOST: '10.96.3.4',
  POSTGRES_PORT: 'tcp://10.96.3.4:5432',
  PGBOUNCER_PORT_6432_TCP_PORT: '6432',
  HOST: '0.0.0.0',
  PORT: '3000',
  DATABASE_URL: 'postgres://finapi:secret@postgres:5432/finapi',
  AUDIT_CHAIN_KEY: KEY,
};

describe('settings', () => {
  it('tells one edit (insertion, deletion, substitution, adjacent transposition) from none and from two', () => {
    expect(oneEditApart('DATABASE_ULR', 'DATABASE_URL')).toBe(true);
    expect(oneEditApart('DATABASE_UR', 'DATABASE_URL')).toBe(true);
    expect(oneEditApart('DATABASE_URLL', 'DATABASE_URL')).toBe(true);
    expect(oneEditApart('DATABASE_URI', 'DATABASE_URL')).toBe(true);
    expect(oneEditApart('LOGLEVEL', 'LOG_LEVEL')).toBe(true);
    expect(oneEditApart('DATABASE_URL', 'DATABASE_URL')).toBe(false);
    expect(oneEditApart('HOME', 'HOST')).toBe(false);
    expect(oneEditApart('DATABSAE_ULR', 'DATABASE_URL')).toBe(false);
    expect(oneEditApart('PORT', 'PORTAL')).toBe(false);
  });

  it('knows every variable config.ts reads, from the code itself', () => {
    const source = readFileSync(join(__dirname, 'config.ts'), 'utf8');
    const read = new Set([...source.matchAll(/env\.([A-Z][A-Z0-9_]*)|\(env, '([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1] ?? m[2]));
    expect(read.size).toBeGreaterThan(40);
    expect([...settingNames()].sort()).toEqual([...read].sort());
  });

  it('refuses a variable one edit, or only its case, away from a setting, naming the setting', () => {
    expect(() => loadConfig({ DATABASE_ULR: 'postgres://x@db/finapi' })).toThrow(
      'Invalid configuration: DATABASE_ULR is not a setting of finapi; did you mean DATABASE_URL?',
    );
    expect(() => loadConfig({ LOGLEVEL: 'warn' })).toThrow('LOGLEVEL is not a setting of finapi; did you mean LOG_LEVEL?');
    expect(() => loadConfig({ database_url: 'postgres://x@db/finapi' })).toThrow(
      'database_url is not a setting of finapi; did you mean DATABASE_URL?',
    );
    expect(() => loadConfig({ EMBEDED_POSTGRES: 'true' })).toThrow('did you mean EMBEDDED_POSTGRES?');
    // Before a bad value of another variable: the misspelling is the cause.
    expect(() => loadConfig({ NODE_ENV: 'production', DATABSE_URL: 'postgres://x@db/finapi' })).toThrow(
      'DATABSE_URL is not a setting of finapi; did you mean DATABASE_URL?',
    );
  });

  it('never takes the usual environment for a misspelling: the shell, Docker, Kubernetes', () => {
    expect(misspeltSetting(Object.keys(CONTAINER_ENV), settingNames())).toBeUndefined();
    expect(loadConfig(CONTAINER_ENV)).toMatchObject({ port: 3000, host: '0.0.0.0' });
  });

  it("never takes npm run start's environment for a misspelling", () => {
    // `npm run env` prints the environment npm gives a package script, npm_* and all.
    const npm = spawnSync('npm', ['run', 'env'], { cwd: ROOT, encoding: 'utf8' });
    expect(npm.status).toBe(0);
    const names = [...npm.stdout.matchAll(/^([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]);
    expect(names).toEqual(expect.arrayContaining(['PATH', 'npm_lifecycle_event', 'npm_package_json', 'INIT_CWD']));
    expect(misspeltSetting(names, settingNames())).toBeUndefined();
  });

  it('issue 46: with NODE_ENV=production, the log sender carries messages only when said explicitly', () => {
    const production = { NODE_ENV: 'production', AUDIT_CHAIN_KEY: KEY, DATABASE_URL: 'postgres://x@db/finapi' };
    expect(() => loadConfig(production)).toThrow(
      'Invalid configuration: SMTP_URL or SMS_GATEWAY_URL must be set when NODE_ENV is production',
    );
    expect(loadConfig({ ...production, MESSAGES_LOG_ONLY: 'true' })).toMatchObject({ messagesToLog: true, smtpUrl: undefined });
    expect(loadConfig({ ...production, SMS_GATEWAY_URL: 'https://sms.example.com', SMS_GATEWAY_SECRET: 'x'.repeat(16) })).toMatchObject({
      messagesToLog: false,
      smsGatewayUrl: 'https://sms.example.com',
    });
    expect(loadConfig({})).toMatchObject({ messagesToLog: true });
    expect(() => loadConfig({ MAIL_FROM: 'nobody' })).toThrow(
      'Invalid configuration: MAIL_FROM must be an address or a name and <address>',
    );
  });

  it('with NODE_ENV=production, asks for DATABASE_URL rather than start the embedded PostgreSQL, unless EMBEDDED_POSTGRES=true', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', AUDIT_CHAIN_KEY: KEY })).toThrow(
      'Invalid configuration: DATABASE_URL must be set when NODE_ENV is production (postgres://user:password@host:5432/database); set EMBEDDED_POSTGRES=true to run the embedded PostgreSQL instead',
    );
    expect(
      loadConfig({ NODE_ENV: 'production', AUDIT_CHAIN_KEY: KEY, EMBEDDED_POSTGRES: 'true', MESSAGES_LOG_ONLY: 'true' }),
    ).toMatchObject({
      databaseUrl: undefined,
      embeddedPostgres: true,
    });
    expect(loadConfig({})).toMatchObject({ databaseUrl: undefined, embeddedPostgres: false });
    expect(() => loadConfig({ EMBEDDED_POSTGRES: 'true', DATABASE_URL: 'postgres://x@db/finapi' })).toThrow(
      'EMBEDDED_POSTGRES must not be true when DATABASE_URL is set',
    );
    expect(() => loadConfig({ EMBEDDED_POSTGRES: 'yes' })).toThrow('EMBEDDED_POSTGRES must be true or false');
  });
});
