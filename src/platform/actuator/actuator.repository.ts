import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { Database } from '../database/database';
import { PRIMARY_POOL } from '../database/primary-pool';

/** What the metrics read at scrape time: the open holds, and the database pool's connections. */
@Injectable()
export class ActuatorRepository {
  constructor(
    private readonly db: Database,
    @Inject(PRIMARY_POOL) private readonly primary: Pool,
  ) {}

  async openHolds(): Promise<number> {
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM holds WHERE status = 'open'`);
    return n;
  }

  /** The primary database's pool: connections open, idle, and clients waiting for one. */
  pool(): { total: number; idle: number; waiting: number } {
    return { total: this.primary.totalCount, idle: this.primary.idleCount, waiting: this.primary.waitingCount };
  }
}
