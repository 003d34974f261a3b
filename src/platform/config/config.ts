import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { passwordProblem } from './password-policy';

/** How SMTP_URL's `?starttls=` asks for STARTTLS (smtp:// only; smtps:// is TLS from the first byte): required by default. */
export const STARTTLS_MODES = ['required', 'optional', 'off'] as const;

export { PASSWORD_MAX_BYTES, PASSWORD_MIN_BYTES } from './password-policy';

/** The service's settings, read once from the environment and validated before anything starts. */
export interface AppConfig {
  port: number;
  host: string;
  /**
   * On SIGTERM/SIGINT: how long readiness answers 503 while the listener still serves (a load balancer sees the
   * instance leave first), then how long requests in flight may take to finish before their connections are cut.
   */
  shutdownDelaySeconds: number;
  shutdownTimeoutSeconds: number;
  databaseUrl: string | undefined;
  /** A replica for searches (`POST …/view`); unset → they read the primary like everything else. */
  readDatabaseUrl: string | undefined;
  /** Straight to the primary, for what needs a session of its own (LISTEN); unset: DATABASE_URL. */
  databaseListenUrl: string | undefined;
  /** How DATABASE_URL's connections are pooled: `transaction` behind PgBouncer's pool_mode=transaction (no named prepared statements). */
  databasePoolMode: DatabasePoolMode;
  /** MIGRATIONS_RUN: each start applies the pending migrations (under their lock); false: they are a job of their own, and a start with any pending refuses. */
  migrationsRun: boolean;
  dataDir: string;
  /** EMBEDDED_POSTGRES=true: with NODE_ENV=production and no DATABASE_URL, start the embedded PostgreSQL anyway (never by accident). */
  embeddedPostgres: boolean;
  tokenTtlSeconds: number;
  /** How long a node may reuse what a token resolved to (revocation still reaches every node at once, by NOTIFY); 0: never. */
  tokenCacheSeconds: number;
  /** Group-commit transactions each instance writes at once (LedgerService), each on its own coins. */
  ledgerGroupsInFlight: number;
  bcryptCost: number;
  adminLogin: string;
  adminPassword: string;
  adminPasswordGenerated: boolean;
  logLevel: LogLevel;
  dbPoolSize: number;
  /** How long a new database connection may take before the attempt fails (DB_CONNECT_TIMEOUT_MS). */
  dbConnectTimeoutMs: number;
  /** How long one statement may run before PostgreSQL cancels it (DB_STATEMENT_TIMEOUT_MS; 0: no limit). */
  dbStatementTimeoutMs: number;
  /** Idle time after which a temporary password stops working. */
  temporaryPasswordTtlSeconds: number;
  /** Failed logins one client address may make per minute before logins from it answer 429. */
  loginFailuresPerMinute: number;
  /**
   * Payee lookups (a coin's owner by serial or in a new transfer template, a customer's coin by login or contact) one
   * user, and one client address, may make per hour before they answer 429: the customer directory cannot be walked.
   */
  payeeLookupsPerHour: number;
  payeeLookupsPerAddressPerHour: number;
  /**
   * Which proxies are trusted to say the client's address in X-Forwarded-For: none (false), a number
   * of hops, or the proxies' addresses and ranges. Never every entry: that lets a client choose its address.
   */
  trustProxy: TrustProxy;
  /** Origins a browser may call the API from (CORS); none by default. */
  corsOrigins: string[];
  /** How often each instance returns the money of expired vouchers to their creators; 0: never (staff call POST /vouchers/expire-due). */
  voucherExpirySweepSeconds: number;
  /** How long a customer's cash-out code stays valid for a cash desk to present. */
  cashOutCodeTtlSeconds: number;
  /** How often each instance asks providers about gate transactions they have not finished (after a crash, a lost callback); 0: never. */
  gateReconcileSeconds: number;
  /** How often each instance marks invoices past their expiresAt as expired (and tells their webhooks); 0: never (paying one still refuses it). */
  invoiceExpirySweepSeconds: number;
  /** How often each instance runs the scheduler's due work (subscriptions); 0: never (staff call POST /scheduler/run). */
  schedulerPollSeconds: number;
  /** SCHEDULER_TEST_CLOCK: `POST /scheduler/run` may be given the date to run up to (tests); refused with NODE_ENV=production. */
  schedulerTestClock: boolean;
  /** The largest CSV file `POST /bank-catalog/import` reads; a larger one is a 413. */
  bankCatalogImportMaxBytes: number;
  /** The largest file `POST /media-files` takes; a larger one is a 413. */
  mediaFileMaxBytes: number;
  /** Where uploaded media files are kept (MEDIA_FILES_DIR); unset: in PostgreSQL, beside their other data. */
  mediaFilesDir: string | undefined;
  /** Webhooks (issue 17): plain http URLs allowed (WEBHOOK_ALLOW_HTTP); private, loopback and link-local addresses allowed (WEBHOOK_ALLOW_PRIVATE). */
  webhookAllowHttp: boolean;
  webhookAllowPrivate: boolean;
  /** How often each instance's dispatcher looks for due deliveries, the first retry's delay (doubling after), and one delivery's timeout. */
  webhookPollMs: number;
  webhookRetryBaseMs: number;
  webhookTimeoutMs: number;
  /** At most this many webhooks per organization, and deliveries per organization of one event. */
  webhooksPerOrganization: number;
  /** `Server-Timing` on every answer (SERVER_TIMING); off by default: its count of database calls tells apart paths that answer alike. */
  serverTiming: boolean;
  /** A bearer a Prometheus scraper may present at GET /actuator/prometheus instead of a user's token; unset: none. */
  metricsToken: string | undefined;
  /** The key of the action log's hash chain (AUDIT_CHAIN_KEY); required in production, else unset means the one kept in DATA_DIR (auditChainKey()). */
  auditChainKey: string | undefined;
  /** Whether individuals, and merchants, may sign themselves up (POST /registration); staff roles never can. */
  selfRegistrationIndividuals: boolean;
  selfRegistrationMerchants: boolean;
  /** How long the old address of a changed login may take it back (the lifetime of its `contact_restore` code). */
  loginChangeUndoSeconds: number;
  /** New (and re-numbered) bank accounts wait for compliance's approval; withdrawals go only to approved ones. */
  bankAccountsRequireApproval: boolean;
  /** `always`: every password login is confirmed with a one-time code sent to the login (POST /authorization/confirm). */
  loginConfirmation: 'off' | 'always';
  /**
   * `true`: a login confirmation (or its resend) that does not carry the password step's `challengeId` is taken from the
   * address that passed the password step (the family's web client sends no challengeId); `false`: the challengeId is required.
   */
  loginChallengeByAddress: boolean;
  /**
   * One-time codes (sign-up, login confirmation, recovery, change of login): lifetime, wrong tries before a code is
   * burnt, least time between two codes of one purpose for one login from one address, most codes one address gets
   * for one login per hour.
   */
  oneTimeCodeTtlSeconds: number;
  oneTimeCodeMaxAttempts: number;
  oneTimeCodeResendSeconds: number;
  oneTimeCodesPerHour: number;
  /** Most codes one address may have sent per hour, whatever the logins (issue 43). */
  oneTimeCodesPerAddressPerHour: number;
  /** Most wrong codes one address may present per hour, whatever the logins (issue 43). */
  oneTimeCodeFailuresPerAddressPerHour: number;
  /** Consecutive wrong codes for one login and purpose, from any address, after which its codes stop (NIST 800-63B: at most 100). */
  oneTimeCodeFailuresBeforeLock: number;
  /** How long that stop lasts; 0: until an administrator releases the user. */
  oneTimeCodeLockSeconds: number;
  /** Where the log sender appends the codes it delivers (one JSON line each), apart from the service's log. */
  oneTimeCodeLog: string;
  /** SMTP_URL: the e-mail sender's server (`smtp://` with STARTTLS as `?starttls=` says, `smtps://` TLS); unset: no e-mail sender. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the From of every e-mail (`finapi <no-reply@example.com>`); required with SMTP_URL. */
  mailFrom: string | undefined;
  /** SMS_GATEWAY_URL: where SMS are POSTed (signed JSON); unset: no SMS sender. SMS_GATEWAY_SECRET keys the signature. */
  smsGatewayUrl: string | undefined;
  smsGatewaySecret: string | undefined;
  /**
   * Whether a message no gateway carries (no SMTP_URL for an e-mail address, no SMS_GATEWAY_URL for a phone number, a
   * login that is neither) goes to the log sender's file: outside production always; in production only with
   * MESSAGES_LOG_ONLY=true, else such a message fails (and shows among the undeliverable ones).
   */
  messagesToLog: boolean;
  /** One attempt's timeout (SMTP connection, greeting and each exchange; the SMS gateway's whole request). */
  messagesTimeoutMs: number;
  /** How often each instance's message dispatcher looks for due messages besides being woken at each commit; the first retry's delay (doubling); attempts before a message fails for good. */
  messagesPollMs: number;
  messagesRetryBaseMs: number;
  messagesMaxAttempts: number;
  /** NODE_ENV=test: the ledger refuses to post for a request not marked an `idempotent` @Route, so a route that forgets it fails its tests. */
  requireIdempotentPostings: boolean;
}

export type TrustProxy = false | number | string[];

export const DATABASE_POOL_MODES = ['session', 'transaction'] as const;
export type DatabasePoolMode = (typeof DATABASE_POOL_MODES)[number];

/** Settings a connection string may carry as startup parameters, which PgBouncer refuses (or, told to ignore them, drops). */
const STARTUP_SETTINGS = ['options', 'statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout'];

/**
 * DATABASE_POOL_MODE=transaction (DATABASE_URL is PgBouncer in transaction mode) needs a direct DATABASE_LISTEN_URL,
 * since a LISTEN through the pooler would hear nothing, and a DATABASE_URL without settings as startup parameters.
 */
function checkTransactionPooling(databaseUrl: string | undefined, listenUrl: string | undefined): void {
  if (!databaseUrl)
    throw new ConfigError('DATABASE_POOL_MODE', 'transaction needs DATABASE_URL (the pooler; the embedded server has none)');
  if (!listenUrl) {
    throw new ConfigError(
      'DATABASE_LISTEN_URL',
      'must be set with DATABASE_POOL_MODE=transaction: a URL straight to PostgreSQL (not through the pooler), for the LISTEN connection',
    );
  }
  const setting = STARTUP_SETTINGS.find((name) => new URL(databaseUrl).searchParams.has(name));
  if (setting) {
    throw new ConfigError(
      'DATABASE_URL',
      `must not carry ${setting} with DATABASE_POOL_MODE=transaction: PgBouncer refuses startup parameters; set it on the role instead (ALTER ROLE … SET ${setting === 'options' ? '…' : setting} = …)`,
    );
  }
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
  }
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** `true` or `false` (unset: false). */
function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.trim() || fallback;
  if (!values.includes(raw as T)) throw new ConfigError(name, `must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

/** A shared secret from the environment: unset, or at least 16 printable characters. */
function secretToken(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim() ?? '';
  if (raw === '') return undefined;
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new ConfigError(name, 'must be 16 to 256 printable characters without spaces');
  return raw;
}

/** The names proxy-addr (Fastify's trustProxy) accepts for ranges of addresses. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** AUDIT_CHAIN_KEY: 32 to 256 printable characters without spaces (`openssl rand -hex 32`). */
export const AUDIT_CHAIN_KEY_SHAPE = /^[\x21-\x7e]{32,256}$/;

/** AUDIT_CHAIN_KEY, checked; it must be set when NODE_ENV is production, where a key kept beside the data would not do. */
function auditChainKeyOf(env: NodeJS.ProcessEnv, production: boolean): string | undefined {
  const raw = env.AUDIT_CHAIN_KEY?.trim() ?? '';
  if (raw === '') {
    if (production)
      throw new ConfigError('AUDIT_CHAIN_KEY', 'must be set when NODE_ENV is production (32 to 256 characters, e.g. openssl rand -hex 32)');
    return undefined;
  }
  if (!AUDIT_CHAIN_KEY_SHAPE.test(raw)) throw new ConfigError('AUDIT_CHAIN_KEY', 'must be 32 to 256 printable characters without spaces');
  return raw;
}

/** TRUST_PROXY: unset or `false`, a number of hops, or a comma-separated list of proxy addresses and CIDR ranges. */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new ConfigError('TRUST_PROXY', `must be at most 10 hops, got ${hops}`);
    return hops;
  }
  if (value === 'true') {
    throw new ConfigError(
      'TRUST_PROXY',
      'must be false, a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses; "true" would trust every X-Forwarded-For entry, so any client could choose its address',
    );
  }
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isProxyAddress(e));
  if (bad !== undefined) {
    throw new ConfigError('TRUST_PROXY', `must be false, a number of hops, or proxy addresses and CIDR ranges, got "${bad}"`);
  }
  return entries;
}

/** A PostgreSQL URL from `name`, or undefined when it is unset. */
function postgresUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim() || undefined;
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be a URL like postgres://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(name, `must use the postgres:// scheme, got "${url.protocol}"`);
  }
  return value;
}

/**
 * Reads and validates the environment; throws a ConfigError naming the first bad variable — first of all a variable
 * one edit away from a setting (DATABASE_ULR), which would otherwise be ignored without a word.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const asked = new Set<string>();
  let config: AppConfig | undefined;
  let refusal: unknown;
  try {
    config = readConfig(recording(env, asked));
  } catch (error) {
    refusal = error;
  }
  const misspelt = misspeltSetting(Object.keys(env), new Set([...settingNames(), ...asked]));
  if (misspelt) throw new ConfigError(misspelt.name, `is not a setting of finapi; did you mean ${misspelt.setting}?`);
  if (!config) throw refusal;
  return config;
}

/** `env` as readConfig sees it, adding to `asked` every name it reads. */
function recording(env: NodeJS.ProcessEnv, asked: Set<string>): NodeJS.ProcessEnv {
  return new Proxy(env, {
    get: (target, name) => {
      if (typeof name === 'string') asked.add(name);
      return Reflect.get(target, name) as unknown;
    },
    has: (target, name) => {
      if (typeof name === 'string') asked.add(name);
      return Reflect.has(target, name);
    },
  });
}

let names: ReadonlySet<string> | undefined;

/**
 * Every variable readConfig reads, found by running it once over an empty environment that records what is asked of
 * it: the list cannot drift from the code. A variable read only under a condition is added by loadConfig when it is read.
 */
export function settingNames(): ReadonlySet<string> {
  if (!names) {
    const asked = new Set<string>();
    readConfig(recording({}, asked));
    names = asked;
  }
  return names;
}

/**
 * Variables of the usual environment (the shell, Node, npm, Docker, Kubernetes), never taken for a misspelt setting
 * whatever settings are added: the shell's names, `npm_*`, `LC_*`, `KUBERNETES_*` and the `<SERVICE>_PORT…`,
 * `<SERVICE>_SERVICE_HOST` variables containers get for their neighbours.
 */
const USUAL_NAMES = new Set(
  'PATH HOME USER LOGNAME PWD OLDPWD SHELL SHLVL TERM COLORTERM LANG LANGUAGE TZ TMPDIR HOSTNAME MAIL EDITOR PAGER DISPLAY _ NODE NODE_OPTIONS NODE_PATH NODE_EXTRA_CA_CERTS UV_THREADPOOL_SIZE INIT_CWD COLOR CI DEBUG'.split(
    ' ',
  ),
);
const USUAL_PATTERN = /^(npm_|NPM_|LC_|XDG_|KUBERNETES_|DOCKER_|SSH_)|_(PORT|SERVICE_HOST|SERVICE_PORT)(_|$)/;

/** True when `a` becomes `b` by one insertion, deletion, substitution, or transposition of adjacent characters. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The first variable of `present` that is not a setting but one edit (or only its case) away from one, with that setting. */
export function misspeltSetting(present: string[], settings: ReadonlySet<string>): { name: string; setting: string } | undefined {
  for (const name of [...present].sort()) {
    if (settings.has(name) || USUAL_NAMES.has(name) || USUAL_PATTERN.test(name)) continue;
    const upper = name.toUpperCase();
    const setting = [...settings].sort().find((s) => upper === s || oneEditApart(upper, s));
    if (setting) return { name, setting };
  }
  return undefined;
}

function readConfig(env: NodeJS.ProcessEnv): AppConfig {
  const nodeEnv = env.NODE_ENV?.trim() ?? '';
  const databaseUrl = postgresUrl(env, 'DATABASE_URL');
  const embeddedPostgres = flag(env, 'EMBEDDED_POSTGRES');
  if (embeddedPostgres && databaseUrl) throw new ConfigError('EMBEDDED_POSTGRES', 'must not be true when DATABASE_URL is set');
  if (nodeEnv === 'production' && !databaseUrl && !embeddedPostgres) {
    throw new ConfigError(
      'DATABASE_URL',
      'must be set when NODE_ENV is production (postgres://user:password@host:5432/database); set EMBEDDED_POSTGRES=true to run the embedded PostgreSQL instead',
    );
  }
  const readDatabaseUrl = postgresUrl(env, 'READ_DATABASE_URL');
  const databaseListenUrl = postgresUrl(env, 'DATABASE_LISTEN_URL');
  const databasePoolMode = oneOf(env, 'DATABASE_POOL_MODE', DATABASE_POOL_MODES, 'session');
  if (databaseListenUrl && !databaseUrl)
    throw new ConfigError('DATABASE_LISTEN_URL', 'needs DATABASE_URL (the embedded server listens on its own)');
  if (databasePoolMode === 'transaction') checkTransactionPooling(databaseUrl, databaseListenUrl);
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const adminLogin = (env.ADMIN_LOGIN?.trim() || 'admin@finapi.local').toLowerCase();
  if (!/^[a-z0-9._@-]{3,64}$/.test(adminLogin)) {
    throw new ConfigError('ADMIN_LOGIN', 'must be 3 to 64 characters of letters, digits and . _ @ -');
  }
  let adminPassword = env.ADMIN_PASSWORD ?? '';
  const adminPasswordGenerated = adminPassword === '';
  if (adminPasswordGenerated) adminPassword = randomBytes(12).toString('base64url');
  const problem = passwordProblem(adminPassword, adminLogin);
  if (problem) throw new ConfigError('ADMIN_PASSWORD', problem);
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    shutdownDelaySeconds: int(env, 'SHUTDOWN_DELAY_SECONDS', 0, 0, 300),
    shutdownTimeoutSeconds: int(env, 'SHUTDOWN_TIMEOUT_SECONDS', 20, 1, 3600),
    databaseUrl,
    readDatabaseUrl,
    databaseListenUrl,
    databasePoolMode,
    migrationsRun: !env.MIGRATIONS_RUN?.trim() || flag(env, 'MIGRATIONS_RUN'),
    dataDir: resolve(env.DATA_DIR?.trim() || './data'),
    embeddedPostgres,
    tokenTtlSeconds: int(env, 'TOKEN_TTL_SECONDS', 1800, 1, 31 * 24 * 3600),
    tokenCacheSeconds: int(env, 'TOKEN_CACHE_SECONDS', 5, 0, 60),
    ledgerGroupsInFlight: int(env, 'LEDGER_GROUPS_IN_FLIGHT', 2, 1, 8),
    bcryptCost: int(env, 'BCRYPT_COST', 12, 4, 15),
    adminLogin,
    adminPassword,
    adminPasswordGenerated,
    logLevel,
    dbPoolSize: int(env, 'DB_POOL_SIZE', 10, 1, 500),
    dbConnectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
    dbStatementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 30_000, 0, 3_600_000),
    temporaryPasswordTtlSeconds: int(env, 'TEMPORARY_PASSWORD_TTL_SECONDS', 24 * 3600, 1, 30 * 24 * 3600),
    loginFailuresPerMinute: int(env, 'LOGIN_FAILURES_PER_MINUTE', 100, 1, 1_000_000),
    payeeLookupsPerHour: int(env, 'PAYEE_LOOKUPS_PER_HOUR', 60, 1, 1_000_000),
    payeeLookupsPerAddressPerHour: int(env, 'PAYEE_LOOKUPS_PER_ADDRESS_PER_HOUR', 600, 1, 1_000_000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    voucherExpirySweepSeconds: int(env, 'VOUCHER_EXPIRY_SWEEP_SECONDS', 60, 0, 24 * 3600),
    cashOutCodeTtlSeconds: int(env, 'CASH_OUT_CODE_TTL_SECONDS', 600, 30, 3600),
    gateReconcileSeconds: int(env, 'GATE_RECONCILE_SECONDS', 30, 0, 24 * 3600),
    invoiceExpirySweepSeconds: int(env, 'INVOICE_EXPIRY_SWEEP_SECONDS', 60, 0, 24 * 3600),
    schedulerPollSeconds: int(env, 'SCHEDULER_POLL_SECONDS', 60, 0, 24 * 3600),
    schedulerTestClock: schedulerTestClockOf(env, nodeEnv === 'production'),
    bankCatalogImportMaxBytes: int(env, 'BANK_CATALOG_IMPORT_MAX_BYTES', 1024 * 1024, 1024, 16 * 1024 * 1024),
    mediaFileMaxBytes: int(env, 'MEDIA_FILE_MAX_BYTES', 5 * 1024 * 1024, 1024, 20 * 1024 * 1024),
    mediaFilesDir: env.MEDIA_FILES_DIR?.trim() ? resolve(env.MEDIA_FILES_DIR.trim()) : undefined,
    webhookAllowHttp: flag(env, 'WEBHOOK_ALLOW_HTTP'),
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE'),
    webhookPollMs: int(env, 'WEBHOOK_POLL_MS', 1000, 50, 3_600_000),
    webhookRetryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 10_000, 10, 3_600_000),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 5000, 100, 60_000),
    webhooksPerOrganization: int(env, 'WEBHOOKS_PER_ORGANIZATION', 20, 1, 1000),
    serverTiming: flag(env, 'SERVER_TIMING'),
    metricsToken: secretToken(env, 'METRICS_TOKEN'),
    auditChainKey: auditChainKeyOf(env, nodeEnv === 'production'),
    requireIdempotentPostings: nodeEnv === 'test',
    selfRegistrationIndividuals: !env.SELF_REGISTRATION_INDIVIDUALS?.trim() || flag(env, 'SELF_REGISTRATION_INDIVIDUALS'),
    selfRegistrationMerchants: !env.SELF_REGISTRATION_MERCHANTS?.trim() || flag(env, 'SELF_REGISTRATION_MERCHANTS'),
    loginChangeUndoSeconds: int(env, 'LOGIN_CHANGE_UNDO_SECONDS', 7 * 24 * 3600, 600, 30 * 24 * 3600),
    bankAccountsRequireApproval: flag(env, 'BANK_ACCOUNTS_REQUIRE_APPROVAL'),
    loginConfirmation: oneOf(env, 'LOGIN_CONFIRMATION', ['off', 'always'] as const, 'off'),
    oneTimeCodeTtlSeconds: int(env, 'ONE_TIME_CODE_TTL_SECONDS', 600, 30, 24 * 3600),
    oneTimeCodeMaxAttempts: int(env, 'ONE_TIME_CODE_MAX_ATTEMPTS', 5, 1, 10),
    oneTimeCodeResendSeconds: int(env, 'ONE_TIME_CODE_RESEND_SECONDS', 60, 0, 3600),
    oneTimeCodesPerHour: int(env, 'ONE_TIME_CODES_PER_HOUR', 10, 1, 1000),
    oneTimeCodesPerAddressPerHour: int(env, 'ONE_TIME_CODES_PER_ADDRESS_PER_HOUR', 50, 1, 1_000_000),
    oneTimeCodeFailuresPerAddressPerHour: int(env, 'ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR', 30, 1, 1_000_000),
    oneTimeCodeFailuresBeforeLock: int(env, 'ONE_TIME_CODE_FAILURES_BEFORE_LOCK', 100, 1, 100),
    oneTimeCodeLockSeconds: int(env, 'ONE_TIME_CODE_LOCK_SECONDS', 24 * 3600, 0, 30 * 24 * 3600),
    loginChallengeByAddress: !env.LOGIN_CHALLENGE_BY_ADDRESS?.trim() || flag(env, 'LOGIN_CHALLENGE_BY_ADDRESS'),
    ...messageSenders(env, nodeEnv === 'production'),
    messagesTimeoutMs: int(env, 'MESSAGES_TIMEOUT_MS', 10_000, 100, 120_000),
    messagesPollMs: int(env, 'MESSAGES_POLL_MS', 1000, 50, 3_600_000),
    messagesRetryBaseMs: int(env, 'MESSAGES_RETRY_BASE_MS', 5000, 10, 3_600_000),
    messagesMaxAttempts: int(env, 'MESSAGES_MAX_ATTEMPTS', 10, 1, 50),
    oneTimeCodeLog: resolve(env.ONE_TIME_CODE_LOG?.trim() || join(env.DATA_DIR?.trim() || './data', 'one-time-codes.log')),
  };
}

/** The senders of messages: SMTP_URL and MAIL_FROM, SMS_GATEWAY_URL and its secret, and whether the log sender may carry any. */
function messageSenders(
  env: NodeJS.ProcessEnv,
  production: boolean,
): Pick<AppConfig, 'smtpUrl' | 'mailFrom' | 'smsGatewayUrl' | 'smsGatewaySecret' | 'messagesToLog'> {
  const smtpUrl = smtpUrlOf(env);
  const mailFrom = env.MAIL_FROM?.trim() || undefined;
  if (smtpUrl && !mailFrom)
    throw new ConfigError('MAIL_FROM', 'must be set with SMTP_URL: the From of every e-mail, e.g. finapi <no-reply@example.com>');
  if (mailFrom && !/^(?:[^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(mailFrom)) {
    throw new ConfigError('MAIL_FROM', `must be an address or a name and <address>, got "${mailFrom}"`);
  }
  const smsGatewayUrl = env.SMS_GATEWAY_URL?.trim() || undefined;
  if (smsGatewayUrl) {
    let url: URL | undefined;
    try {
      url = new URL(smsGatewayUrl);
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password) {
      throw new ConfigError('SMS_GATEWAY_URL', `must be an http:// or https:// URL without credentials, got "${smsGatewayUrl}"`);
    }
  }
  const smsGatewaySecret = secretToken(env, 'SMS_GATEWAY_SECRET');
  if (smsGatewayUrl && !smsGatewaySecret) {
    throw new ConfigError('SMS_GATEWAY_SECRET', 'must be set with SMS_GATEWAY_URL (16 to 256 printable characters): it signs each request');
  }
  const logOnly = flag(env, 'MESSAGES_LOG_ONLY');
  if (production && !logOnly && !smtpUrl && !smsGatewayUrl) {
    throw new ConfigError(
      'SMTP_URL',
      "or SMS_GATEWAY_URL must be set when NODE_ENV is production: codes would reach no one but the log sender's file; set MESSAGES_LOG_ONLY=true to run so on purpose",
    );
  }
  return { smtpUrl, mailFrom, smsGatewayUrl, smsGatewaySecret, messagesToLog: !production || logOnly };
}

/** SMTP_URL: `smtp://[user:password@]host[:port][?starttls=required|optional|off]` or `smtps://…` (TLS from the start). */
function smtpUrlOf(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.SMTP_URL?.trim() || undefined;
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  const shape = 'must be a URL like smtp://user:password@mail.example.com:587 (STARTTLS) or smtps://…:465 (TLS)';
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) throw new ConfigError('SMTP_URL', shape);
  for (const [name, value] of url.searchParams) {
    if (name !== 'starttls' || url.protocol === 'smtps:')
      throw new ConfigError('SMTP_URL', `takes no ?${name}= (${shape}, ?starttls= with smtp:// only)`);
    if (!(STARTTLS_MODES as readonly string[]).includes(value)) {
      throw new ConfigError('SMTP_URL', `?starttls= must be one of ${STARTTLS_MODES.join(', ')}, got "${value}"`);
    }
  }
  return raw;
}

/** SCHEDULER_TEST_CLOCK: a clock tests drive must never be on in production, where it would pay before the due date. */
function schedulerTestClockOf(env: NodeJS.ProcessEnv, production: boolean): boolean {
  const on = flag(env, 'SCHEDULER_TEST_CLOCK');
  if (on && production) throw new ConfigError('SCHEDULER_TEST_CLOCK', 'must not be true when NODE_ENV is production');
  return on;
}

/** CORS_ORIGINS: a comma-separated list of origins (`https://app.example.com`), no paths, no wildcards. */
function parseCorsOrigins(raw: string | undefined): string[] {
  const origins = (raw ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== origin) {
      throw new ConfigError('CORS_ORIGINS', `must be origins like https://app.example.com (scheme, host, optional port), got "${origin}"`);
    }
  }
  return origins;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
