import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../config/config';
import { ActionChain } from './action-chain';
import type { ServiceKeyRepository } from './service-key.repository';

/** What the check value is an HMAC of: a fixed label, so the value tells nothing but which key made it. */
const LABEL = 'finapi service key check v1';

/**
 * The check value of a key: HMAC-SHA256 of a fixed label under it. The database may hold it: it reveals no more of the
 * key than the chain's own hashes do (each an HMAC under it of content the database holds).
 */
export function keyCheckValue(key: string): string {
  return createHmac('sha256', key).update(LABEL, 'utf8').digest('hex');
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Where the key came from, for the refusal: the variable, or the file generated in DATA_DIR when it is unset. */
export type KeySource = { variable: true } | { file: string };

/**
 * Refuses a key that is not the one the database is written with, before anything is written with it: the action
 * log's chain would fork and every keyed retry reaching another instance would answer `422 key_reused` (issue 43).
 * The database keeps the check value of the first key that started on it (`service_key_check`). Without one — a new
 * database, or one of a release before the check — the key is verified against the newest action it chains, when
 * there is one, and recorded: the first instance of this release to start gives its key to the database.
 * Answers whether it recorded the check value.
 */
export async function verifyServiceKey(key: string, source: KeySource, keys: ServiceKeyRepository): Promise<boolean> {
  const mine = keyCheckValue(key);
  let stored = await keys.checkValue();
  let recorded = false;
  if (stored === undefined) {
    const newest = await keys.newestKeyedAction();
    if (newest && !same(new ActionChain(key).hash(newest.prev_hash, newest), newest.hash)) {
      throw refusal(source, `its newest action, ${newest.seq}, does not verify under it; `);
    }
    await keys.record(mine);
    stored = await keys.checkValue();
    recorded = stored === mine;
  }
  if (stored === undefined || !same(stored, mine)) throw refusal(source, '');
  return recorded;
}

function refusal(source: KeySource, evidence: string): ConfigError {
  const which =
    'variable' in source
      ? 'is not the key this database was written with'
      : `is unset, and the key generated in ${source.file} is not the one this database was written with`;
  const where = 'variable' in source ? '' : " (the first instance's DATA_DIR/audit-chain.key holds this database's key)";
  return new ConfigError(
    'AUDIT_CHAIN_KEY',
    `${which} (${evidence}its action log, Idempotency-Key fingerprints and card numbers are keyed with another): give every instance on one database the same AUDIT_CHAIN_KEY${where}`,
  );
}
