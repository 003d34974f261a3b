import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

@Injectable()
export class AccessRepository {
  constructor(private readonly db: Database) {}

  /** Memberships refer to `roles`; every role in code exists there (added, never removed, so older nodes keep working). */
  async syncRoles(roles: readonly string[]): Promise<void> {
    await this.db.query(`INSERT INTO roles (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING`, [roles]);
  }
}
