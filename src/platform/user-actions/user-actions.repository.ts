import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Database } from '../database/database';
import { UnitOfWork } from '../database/unit-of-work';
import { ActionChain, ChainedAction } from './action-chain';
import type { UserAction } from './user-action.types';

/** An action as read back: the chained columns, with `details` parsed and `created_at` a date. */
export interface UserActionRow extends Omit<ChainedAction, 'details' | 'micros'> {
  details: Record<string, unknown>;
  created_at: Date;
}

@Injectable()
export class UserActionsRepository {
  constructor(
    private readonly db: Database,
    private readonly uow: UnitOfWork,
    private readonly chain: ActionChain,
  ) {}

  /**
   * Appends the actions to the chain, in the open transaction (or one of their own): user_actions_append() locks the
   * chain's end until the commit and answers the hash to chain after, their seqs, the time and each details as jsonb
   * writes it; the hashes are computed here, with the key, and the rows inserted in one statement. `atCommit`: that
   * statement is the transaction's last, sent with its COMMIT (UnitOfWork.sendWithCommit).
   */
  async insert(actions: UserAction[], atCommit = false): Promise<void> {
    await this.uow.run(async () => {
      const [start] = await this.db.query<{ last: string; seqs: string[]; micros: string; details: string[] }>(
        `SELECT a.last, a.seqs::text[] AS seqs, a.micros,
                ARRAY(SELECT d::jsonb::text FROM unnest($2::text[]) WITH ORDINALITY AS u(d, n) ORDER BY n) AS details
           FROM user_actions_append($1) a`,
        [actions.length, actions.map((a) => JSON.stringify(a.details ?? {}))],
        { prepare: true },
      );
      const seqs = start.seqs.map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      let prev = start.last;
      const rows = actions.map((a, i) => {
        const action: ChainedAction = {
          id: randomUUID(),
          user_id: a.userId,
          actor_user_id: a.actorUserId ?? null,
          action: a.action,
          login: a.login ?? null,
          address: a.address ?? null,
          details: start.details[i],
          micros: start.micros,
        };
        const row = { ...action, seq: seqs[i].toString(), prev_hash: prev, hash: this.chain.hash(prev, action) };
        prev = row.hash;
        return row;
      });
      const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
      const write = () =>
        this.db.query(
          `INSERT INTO user_actions (id, seq, user_id, actor_user_id, action, login, address, details, created_at, prev_hash, hash)
         SELECT id, seq, user_id, actor_user_id, action, login, address, details, now(), prev_hash, hash
           FROM unnest($1::uuid[], $2::bigint[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::text[])
                AS a(id, seq, user_id, actor_user_id, action, login, address, details, prev_hash, hash)`,
          [
            column('id'),
            column('seq'),
            column('user_id'),
            column('actor_user_id'),
            column('action'),
            column('login'),
            column('address'),
            column('details'),
            column('prev_hash'),
            column('hash'),
          ],
          { prepare: true },
        );
      if (atCommit) this.uow.sendWithCommit(write);
      else await write();
    });
  }

  async page(userId: string, offset: number, limit: number): Promise<{ total: number; rows: UserActionRow[] }> {
    const [{ count }] = await this.db.query<{ count: string }>(`SELECT count(*) AS count FROM user_actions WHERE user_id = $1`, [userId]);
    const rows = await this.db.query<UserActionRow>(
      `SELECT id, user_id, actor_user_id, action, login, address, details, created_at FROM user_actions
        WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    );
    return { total: Number(count), rows };
  }
}
