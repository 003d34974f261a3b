import { Inject, Injectable } from '@nestjs/common';
import { createHash, createHmac } from 'node:crypto';

/** The key of the action log's hash chain (AUDIT_CHAIN_KEY, or the one kept in DATA_DIR: config/audit-chain-key.ts). */
export const ACTION_CHAIN_KEY = Symbol('ACTION_CHAIN_KEY');

/**
 * An action as its hash covers it, each part as PostgreSQL writes it as text: ids, `details::text` (jsonb's own
 * form), and `created_at` in whole microseconds since the epoch.
 */
export interface ChainedAction {
  id: string;
  user_id: string | null;
  actor_user_id: string | null;
  action: string;
  login: string | null;
  address: string | null;
  details: string;
  micros: string;
}

/** The text a hash covers: the previous action's hash and the action's content, separated by U+001F (user_action_hash()'s). */
function content(prev: string, action: ChainedAction): string {
  return [
    prev,
    action.id.toLowerCase(),
    action.user_id?.toLowerCase() ?? '',
    action.actor_user_id?.toLowerCase() ?? '',
    action.action,
    action.login ?? '',
    action.address ?? '',
    action.details,
    action.micros,
  ].join('\x1f');
}

/**
 * The hashes of the action log's chain. Each action's hash covers the previous action's hash and its own content,
 * as an HMAC-SHA256 under a key the database never sees: whoever can write rows cannot recompute the chain after
 * editing one. Actions recorded before the key existed (below `user_action_chain.keyed_from`) keep their plain
 * SHA-256 (`plainHash`, what SQL's user_action_hash() computes).
 */
@Injectable()
export class ActionChain {
  constructor(@Inject(ACTION_CHAIN_KEY) private readonly key: string) {}

  hash(prev: string, action: ChainedAction): string {
    return createHmac('sha256', this.key).update(content(prev, action), 'utf8').digest('hex');
  }

  static plainHash(prev: string, action: ChainedAction): string {
    return createHash('sha256').update(content(prev, action), 'utf8').digest('hex');
  }
}
