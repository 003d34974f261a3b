import { isOutage } from '../common/outage';
import { ConfigError } from '../config/config';
import { EmbeddedPostgresError } from './embedded-postgres';
import { MigrationError, MigrationsPendingError } from './migrations';

/**
 * Why the database cannot be reached, said by PostgreSQL (SQLSTATE) or the network (errno): a fact about the
 * deployment, not a bug, so the operator gets one sentence rather than a stack.
 */
const KNOWN_CODES = new Set([
  '28P01', // password authentication failed
  '28000', // no pg_hba.conf entry, role does not exist
  '3D000', // database does not exist
  '57P03', // the database system is starting up / shutting down
  '53300', // too many connections
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

function codeOf(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown }; errors?: unknown[] };
  const code = e?.driverError?.code ?? e?.code ?? (Array.isArray(e?.errors) ? (e.errors[0] as { code?: unknown })?.code : undefined);
  return typeof code === 'string' ? code : undefined;
}

/** The message of `error`; an AggregateError (every address of a host refused) has none of its own. */
function messageOf(error: Error): string {
  if (error.message) return error.message;
  const inner = (error as Error & { errors?: unknown[] }).errors;
  if (Array.isArray(inner) && inner.length) return inner.map((e) => (e instanceof Error ? e.message : String(e))).join('; ');
  return error.name;
}

/**
 * What a failed start logs: for a known cause (configuration, the embedded server, a migration, the database out of reach) one
 * sentence; anything else is a bug and keeps its stack (`err`, inside the same JSON line).
 */
export function startFailure(error: unknown): { message: string; err?: Error } {
  if (!(error instanceof Error)) return { message: String(error) };
  const known =
    error instanceof ConfigError ||
    error instanceof EmbeddedPostgresError ||
    error instanceof MigrationError ||
    error instanceof MigrationsPendingError ||
    KNOWN_CODES.has(codeOf(error) ?? '') ||
    // The database crashed, restarting, a read-only standby, PgBouncer unable to reach it (08P01): a fact, not a bug.
    isOutage(error) ||
    isOutage((error as { driverError?: unknown }).driverError);
  return known ? { message: messageOf(error) } : { message: messageOf(error), err: error };
}
