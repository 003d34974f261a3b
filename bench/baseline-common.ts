/**
 * What the two bare baselines (bench/baseline.ts and bench/baseline-money.ts) share: the `pg` pool
 * from the environment, the caller's token read from `Authorization` and looked up by its SHA-256
 * hash with the service's one query (AccessService.principalFor), and the Fastify start-up, shutdown
 * and failure boilerplate. Plain Fastify + `pg`, nothing else: this module must not grow a framework.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Pool } from 'pg';

const SCHEME = /^(?:Bearer|TOKEN)\s+([A-Za-z0-9_\-.~+/=]{16,512})\s*$/i;

/** The token by its hash, with its membership, organization and user (AccessService.principalFor's query). */
export const PRINCIPAL_SQL = `SELECT t.id AS token_id, t.user_id, t.membership_id, m.organization_id, o.type AS organization_type, m.role, t.scope,
       u.login AS user_login, u.name AS user_name, u.status AS user_status,
       o.name AS organization_name, o.identification_status, o.contract_id, o.person_type
  FROM auth_tokens t
  JOIN memberships m ON m.id = t.membership_id
  JOIN organizations o ON o.id = m.organization_id
  JOIN users u ON u.id = t.user_id
 WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now()`;

/** The service's answer when the request carries no token. */
export const TOKEN_MISSING = { status: 'error', code: 'exception.authorization.token_missing' };

/** The SHA-256 hash of the token in an `Authorization` header, undefined when there is none. */
export function tokenHash(authorization: string | undefined): Buffer | undefined {
  const match = SCHEME.exec(authorization ?? '');
  return match ? createHash('sha256').update(match[1], 'utf8').digest() : undefined;
}

/** The pool on DATABASE_URL, DB_POOL_SIZE connections at most (10 by default). */
export function createPool(applicationName: string): Pool {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  return new Pool({
    connectionString: databaseUrl,
    max: Number(process.env.DB_POOL_SIZE ?? 10),
    application_name: applicationName,
  });
}

/**
 * Closes the app and the pool on SIGTERM/SIGINT, listens on HOST:PORT (127.0.0.1:`defaultPort` by
 * default) and prints `<ready> listening on http://host:port`, the line the bench waits for.
 */
export async function serve(app: FastifyInstance, pool: Pool, defaultPort: number, ready: string): Promise<void> {
  const shutdown = (): void => {
    void app
      .close()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  const port = Number(process.env.PORT ?? defaultPort);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen({ port, host });
  process.stdout.write(`${ready} listening on http://${host}:${port}\n`);
}

/** Runs a baseline's `main`; on failure prints `<label> failed: …` and exits 1. */
export function runBaseline(label: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${label} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

/** The body of the baselines' `POST /transfer`. */
export interface TransferBody {
  src?: unknown;
  dest?: unknown;
  amount?: unknown;
}

const SERIAL = /^[1-9][0-9]{0,18}$/;
const AMOUNT = /^[0-9]{1,20}(\.[0-9]{1,18})?$/;

/** `{src, dest, amount}` when the body is a transfer between two coins of a positive decimal amount, else undefined (a 400). */
export function transferOf(body: TransferBody | undefined): { src: string; dest: string; amount: string } | undefined {
  const { src, dest, amount } = body ?? {};
  if (typeof src !== 'string' || typeof dest !== 'string' || typeof amount !== 'string') return undefined;
  if (!SERIAL.test(src) || !SERIAL.test(dest) || src === dest || !AMOUNT.test(amount) || /^[0.]+$/.test(amount)) return undefined;
  return { src, dest, amount };
}

/** The baselines' answer to a body that is not a transfer. */
export const NOT_A_TRANSFER = { status: 'error', code: 'exception.validation' };
