import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Database } from '../database/database';

/** What the metrics read at scrape time: the open holds, and the database pool's connections. */
@Injectable()
export class ActuatorRepository {
  constructor(
    private readonly db: Database,
    private readonly dataSource: DataSource,
  ) {}

  async openHolds(): Promise<number> {
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM holds WHERE status = 'open'`);
    return n;
  }

  /** The pg pool of TypeORM's driver: connections open, idle, and clients waiting for one. */
  pool(): { total: number; idle: number; waiting: number } {
    const pool = (this.dataSource.driver as unknown as { master?: { totalCount: number; idleCount: number; waitingCount: number } }).master;
    return { total: pool?.totalCount ?? 0, idle: pool?.idleCount ?? 0, waiting: pool?.waitingCount ?? 0 };
  }
}
