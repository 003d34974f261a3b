import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface ReportCurrencyRow {
  id: string;
  code: string;
  symbol: string | null;
  fraction: string;
}

/** An open coin of the organization with its own currency, and the rate that converts it into the report's currency. */
export interface ReportCoinRow {
  serial: string;
  name: string;
  balance: string;
  issuer_id: string;
  code: string;
  symbol: string | null;
  fraction: string;
  /** `1` for a coin of the report's currency; else the rate in force from the coin's currency to it, null when there is none. */
  rate: string | null;
}

export interface FlowRow {
  inflow: string;
  outflow: string;
}

export interface DailyOutflowRow {
  date: string;
  outflow: string;
}

export interface CategoryOutflowRow {
  category_id: string | null;
  outflow: string;
  operations: number;
}

/**
 * Whose outflows a report reads: the organization's coins of a currency (moves between them left
 * out), or one of its coins (every move out of it). `$1` is the organization, `$2` the currency's id
 * or the coin's serial.
 */
export type OutflowScope = 'organization' | 'coin';

/**
 * A leg between two coins of one organization (the entry's partner in its leg belongs to the same
 * organization): money that stayed inside it, so not a flow of the organization.
 */
const INSIDE_ORGANIZATION = `EXISTS (SELECT 1 FROM ledger_entries x
  WHERE x.operation_id = e.operation_id AND x.leg = e.leg AND x.id <> e.id AND x.organization_id = e.organization_id)`;

/**
 * Read-only reports over money facts that other modules write: balances from `coins` (converted at
 * `exchange_rates`), flows from `ledger_entries` (each entry carries its coin's organization and its operation's date, indexed
 * `(organization_id, created_at, …)`). Nothing here writes.
 */
@Injectable()
export class ReportingRepository {
  constructor(private readonly db: Database) {}

  async currency(code: string): Promise<ReportCurrencyRow | undefined> {
    const [row] = await this.db.query<ReportCurrencyRow>(
      'SELECT id, code, symbol, fraction::text AS fraction FROM currencies WHERE code = $1',
      [code],
    );
    return row;
  }

  /** One of the organization's coins (closed ones too: their history is still theirs), with its currency. */
  async ownCoin(organizationId: string, serial: string): Promise<(ReportCurrencyRow & { serial: string }) | undefined> {
    const [row] = await this.db.query<ReportCurrencyRow & { serial: string }>(
      `SELECT c.serial::text AS serial, cu.id, cu.code, cu.symbol, cu.fraction::text AS fraction
         FROM coins c JOIN currencies cu ON cu.id = c.currency_id
        WHERE c.serial = $1 AND c.organization_id = $2 AND c.type = 'client'`,
      [serial, organizationId],
    );
    return row;
  }

  /**
   * The organization's client coins that are not closed, of every currency, by serial, each with the rate in force
   * (the latest `valid_from` not after now, as an exchange reads it) from its currency to `currencyId`: one probe of
   * the rates' unique index per coin of another currency. Only the ordered pair's own rate: never the inverse's.
   */
  async openCoins(organizationId: string, currencyId: string): Promise<ReportCoinRow[]> {
    return this.db.query<ReportCoinRow>(
      `SELECT c.serial::text AS serial, c.name, c.balance::text AS balance, c.issuer_id,
              cu.code, cu.symbol, cu.fraction::text AS fraction,
              CASE WHEN c.currency_id = $2 THEN '1' ELSE (
                SELECT r.rate::text FROM exchange_rates r
                 WHERE r.from_currency_id = c.currency_id AND r.to_currency_id = $2 AND r.valid_from <= now()
                 ORDER BY r.valid_from DESC LIMIT 1) END AS rate
         FROM coins c JOIN currencies cu ON cu.id = c.currency_id
        WHERE c.organization_id = $1 AND c.type = 'client' AND c.closed_at IS NULL
        ORDER BY c.serial`,
      [organizationId, currencyId],
    );
  }

  /** What entered and left the organization's coins of a currency in [from, to), leaving out moves between them. */
  async organizationFlows(organizationId: string, currencyId: string, from: string, to: string): Promise<FlowRow> {
    const [row] = await this.db.query<FlowRow>(
      `SELECT COALESCE(sum(e.amount) FILTER (WHERE e.amount > 0), 0)::text AS inflow,
              COALESCE(-sum(e.amount) FILTER (WHERE e.amount < 0), 0)::text AS outflow
         FROM ledger_entries e
        WHERE e.organization_id = $1 AND e.currency_id = $2 AND e.created_at >= $3::timestamptz AND e.created_at < $4::timestamptz
          AND NOT ${INSIDE_ORGANIZATION}`,
      [organizationId, currencyId, from, to],
    );
    return row;
  }

  /** What entered and left one coin of the organization in [from, to), from any other coin. */
  async coinFlows(organizationId: string, serial: string, from: string, to: string): Promise<FlowRow> {
    const [row] = await this.db.query<FlowRow>(
      `SELECT COALESCE(sum(e.amount) FILTER (WHERE e.amount > 0), 0)::text AS inflow,
              COALESCE(-sum(e.amount) FILTER (WHERE e.amount < 0), 0)::text AS outflow
         FROM ledger_entries e
        WHERE e.organization_id = $1 AND e.coin_serial = $2 AND e.created_at >= $3::timestamptz AND e.created_at < $4::timestamptz`,
      [organizationId, serial, from, to],
    );
    return row;
  }

  /**
   * The outflow per UTC day, for every day that [from, to) touches (0 on days without any).
   */
  async dailyOutflows(scope: OutflowScope, organizationId: string, of: string, from: string, to: string): Promise<DailyOutflowRow[]> {
    return this.db.query<DailyOutflowRow>(
      `WITH outflows AS (
         SELECT (e.created_at AT TIME ZONE 'UTC')::date AS day, -sum(e.amount) AS outflow
           FROM ledger_entries e
          WHERE ${OUTFLOWS[scope]}
          GROUP BY 1)
       SELECT to_char(d.day, 'YYYY-MM-DD') AS date, COALESCE(o.outflow, 0)::text AS outflow
         FROM generate_series(date_trunc('day', $3::timestamptz AT TIME ZONE 'UTC'),
                              date_trunc('day', ($4::timestamptz - interval '1 microsecond') AT TIME ZONE 'UTC'), interval '1 day') AS d(day)
         LEFT JOIN outflows o ON o.day = d.day::date
        ORDER BY d.day`,
      [organizationId, of, from, to],
    );
  }

  /**
   * The outflow in [from, to) per category the user tagged its operations with (an operation under
   * two categories counts in both), and the outflow of the operations they did not tag (category null);
   * the largest first.
   */
  async categoryOutflows(
    scope: OutflowScope,
    organizationId: string,
    of: string,
    from: string,
    to: string,
    userId: string,
  ): Promise<CategoryOutflowRow[]> {
    return this.db.query<CategoryOutflowRow>(
      `WITH outflows AS (
         SELECT e.operation_id, -sum(e.amount) AS outflow
           FROM ledger_entries e
          WHERE ${OUTFLOWS[scope]}
          GROUP BY 1)
       SELECT c.id AS category_id, sum(o.outflow)::text AS outflow, count(*)::int AS operations
         FROM outflows o
         LEFT JOIN (transaction_category_operations t JOIN transaction_categories c ON c.id = t.category_id AND c.user_id = $5)
           ON t.operation_id = o.operation_id AND t.organization_id = $1
        GROUP BY c.id
        ORDER BY sum(o.outflow) DESC, c.id NULLS LAST`,
      [organizationId, of, from, to, userId],
    );
  }
}

/** The entries that left the scope in [$3, $4). */
const OUTFLOWS: Record<OutflowScope, string> = {
  organization: `e.organization_id = $1 AND e.currency_id = $2 AND e.created_at >= $3::timestamptz AND e.created_at < $4::timestamptz
            AND e.amount < 0 AND NOT ${INSIDE_ORGANIZATION}`,
  coin: `e.organization_id = $1 AND e.coin_serial = $2 AND e.created_at >= $3::timestamptz AND e.created_at < $4::timestamptz AND e.amount < 0`,
};
