import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import type { ChainedAction } from './action-chain';

/** The newest action the key chains, with its stored hashes. */
export interface KeyedAction extends ChainedAction {
  seq: string;
  prev_hash: string;
  hash: string;
}

/** The database's check value of the service's key (one row), and what verifies a key where there is none yet. */
@Injectable()
export class ServiceKeyRepository {
  constructor(private readonly db: Database) {}

  async checkValue(): Promise<string | undefined> {
    const [row] = await this.db.query<{ check_value: string }>(`SELECT check_value FROM service_key_check`);
    return row?.check_value;
  }

  /** Records the check value unless one is there already (an instance starting at the same time may have won). */
  async record(checkValue: string): Promise<void> {
    await this.db.query(`INSERT INTO service_key_check (check_value) VALUES ($1) ON CONFLICT (one) DO NOTHING`, [checkValue]);
  }

  /** The newest action hashed with the key (at or after `user_action_chain.keyed_from`), as its hash covers it. */
  async newestKeyedAction(): Promise<KeyedAction | undefined> {
    const [row] = await this.db.query<KeyedAction>(
      `SELECT id::text AS id, seq::text AS seq, prev_hash, hash, user_id::text AS user_id, actor_user_id::text AS actor_user_id, action,
              login, address, details::text AS details, (extract(epoch FROM created_at) * 1000000)::bigint::text AS micros
         FROM user_actions
        WHERE seq >= coalesce((SELECT keyed_from FROM user_action_chain), 1)
        ORDER BY seq DESC LIMIT 1`,
    );
    return row;
  }
}
