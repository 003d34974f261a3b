import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import type { UserAction } from './user-action.types';

export interface UserActionRow {
  id: string;
  user_id: string | null;
  actor_user_id: string | null;
  action: string;
  login: string | null;
  address: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

@Injectable()
export class UserActionsRepository {
  constructor(private readonly db: Database) {}

  /** Inserts the actions in one statement. */
  async insert(actions: UserAction[]): Promise<void> {
    await this.db.query(
      `INSERT INTO user_actions (user_id, actor_user_id, action, login, address, details)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::jsonb[])`,
      [
        actions.map((a) => a.userId),
        actions.map((a) => a.actorUserId ?? null),
        actions.map((a) => a.action),
        actions.map((a) => a.login ?? null),
        actions.map((a) => a.address ?? null),
        actions.map((a) => JSON.stringify(a.details ?? {})),
      ],
    );
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
