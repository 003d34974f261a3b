import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface VolumeRow {
  date: string;
  currency: string;
  fraction: string;
  operations: number;
  amount: string;
}

export interface OpenHoldsRow {
  currency: string;
  fraction: string;
  holds: number;
  amount: string;
}

export interface DayCountRow {
  date: string;
  count: number;
}

/** The dashboard's figures over [from, to), per UTC day. */
@Injectable()
export class DashboardRepository {
  constructor(private readonly db: Database) {}

  /** Processed operations (reversals left out) per UTC day and currency: how many and what they moved. */
  volumes(from: Date, to: Date): Promise<VolumeRow[]> {
    return this.db.query<VolumeRow>(
      `SELECT to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, cu.code AS currency, cu.fraction::text AS fraction,
              count(*)::int AS operations, sum(o.amount)::text AS amount
         FROM operations o JOIN currencies cu ON cu.id = o.currency_id
        WHERE o.created_at >= $1 AND o.created_at < $2 AND o.status IN ('processed', 'reversed')
        GROUP BY 1, 2, 3 ORDER BY 1, 2`,
      [from, to],
    );
  }

  openHolds(): Promise<OpenHoldsRow[]> {
    return this.db.query<OpenHoldsRow>(
      `SELECT cu.code AS currency, cu.fraction::text AS fraction, count(*)::int AS holds, sum(h.amount)::text AS amount
         FROM holds h JOIN coins c ON c.serial = h.coin_serial JOIN currencies cu ON cu.id = c.currency_id
        WHERE h.status = 'open' GROUP BY 1, 2 ORDER BY 1`,
    );
  }

  /** Failed logins and password changes per UTC day; a login refused On Hold (its password unchecked) is one too. */
  failedLogins(from: Date, to: Date): Promise<DayCountRow[]> {
    return this.db.query<DayCountRow>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*)::int AS count
         FROM user_actions WHERE action IN ('login_failed', 'login_refused_on_hold', 'password_change_failed', 'contact_change_failed') AND created_at >= $1 AND created_at < $2
        GROUP BY 1 ORDER BY 1`,
      [from, to],
    );
  }

  /** Webhook deliveries given up for good, per UTC day of their last attempt. */
  webhookFailures(from: Date, to: Date): Promise<DayCountRow[]> {
    return this.db.query<DayCountRow>(
      `SELECT to_char(last_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*)::int AS count
         FROM webhook_deliveries WHERE status = 'failed' AND last_attempt_at >= $1 AND last_attempt_at < $2
        GROUP BY 1 ORDER BY 1`,
      [from, to],
    );
  }
}
