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

  /**
   * Whether the primary takes writes: `writable`; `read-only` when it is a standby (a failover not done yet, or a proxy
   * that reached the wrong server: `SELECT 1` succeeds there, every write fails); `unreachable` when it does not answer
   * within `timeoutMs` (a dead server's connection attempt could otherwise hold a probe for the connect timeout).
   */
  async databaseState(timeoutMs: number): Promise<'writable' | 'read-only' | 'unreachable'> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'unreachable'>((resolve) => (timer = setTimeout(resolve, timeoutMs, 'unreachable')));
    const asked = this.db
      .queryPool<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby')
      .then(([row]) => (row.standby ? ('read-only' as const) : ('writable' as const)))
      .catch(() => 'unreachable' as const);
    try {
      return await Promise.race([asked, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The primary database's pool: connections open, idle, and clients waiting for one. */
  pool(): { total: number; idle: number; waiting: number } {
    return { total: this.primary.totalCount, idle: this.primary.idleCount, waiting: this.primary.waitingCount };
  }
}
