import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig, AUDIT_CHAIN_KEY_SHAPE, ConfigError } from './config';

/** The file in DATA_DIR that keeps the generated key of the action log's hash chain. */
export const AUDIT_CHAIN_KEY_FILE = 'audit-chain.key';

/** The key files this process generated (whichever module asked first): the action log says so once, whoever it was. */
const generatedHere = new Set<string>();

/** Whether this process generated `file` (auditChainKey made a new key there). */
export function generatedByThisProcess(file: string): boolean {
  return generatedHere.has(file);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function readKey(file: string): string {
  const key = readFileSync(file, 'utf8').trim();
  if (!AUDIT_CHAIN_KEY_SHAPE.test(key))
    throw new ConfigError('AUDIT_CHAIN_KEY', `is unset and ${file} does not hold 32 to 256 printable characters`);
  return key;
}

/**
 * The key of the action log's hash chain: AUDIT_CHAIN_KEY, else (never in production: loadConfig requires the
 * variable there) the key kept in DATA_DIR/audit-chain.key, made at the first start as 64 random hex characters
 * with mode 0600 — the same DATA_DIR whether the database is the embedded one or DATABASE_URL's. The file is
 * written aside and linked into place, so instances starting together on one DATA_DIR agree on one key.
 * `generated` hears where a new key was written.
 */
export function auditChainKey(config: Pick<AppConfig, 'auditChainKey' | 'dataDir'>, generated: (file: string) => void = () => {}): string {
  if (config.auditChainKey) return config.auditChainKey;
  const file = join(config.dataDir, AUDIT_CHAIN_KEY_FILE);
  try {
    return readKey(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  try {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    const aside = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(aside, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(aside, file);
      generatedHere.add(file);
      generated(file);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    } finally {
      unlinkSync(aside);
    }
  } catch (error) {
    throw new ConfigError(
      'AUDIT_CHAIN_KEY',
      `is unset and ${file} could not be written (${error instanceof Error ? error.message : String(error)}); set AUDIT_CHAIN_KEY, or DATA_DIR to a writable directory`,
    );
  }
  return readKey(file);
}
