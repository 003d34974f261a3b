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

  async insert(action: UserAction): Promise<void> {
    await this.db.query(
      `INSERT INTO user_actions (user_id, actor_user_id, action, login, address, details) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        action.userId,
        action.actorUserId ?? null,
        action.action,
        action.login ?? null,
        action.address ?? null,
        JSON.stringify(action.details ?? {}),
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
