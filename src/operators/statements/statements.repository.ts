import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface StatementCoinRow {
  serial: string;
  organization_id: string;
  name: string;
  code: string;
  fraction: string;
  balance: string;
}

export interface StatementEntryRow {
  id: string;
  operation_id: string;
  type: string;
  status: string;
  description: string | null;
  created_at: Date;
  amount: string;
  counterparty_serial: string | null;
  counterparty_organization_id: string | null;
}

/** A coin's ledger entries, read in keyset pages (by entry id) so a statement never holds them all. */
@Injectable()
export class StatementsRepository {
  constructor(private readonly db: Database) {}

  async coin(serial: string): Promise<StatementCoinRow | undefined> {
    const [row] = await this.db.query<StatementCoinRow>(
      `SELECT c.serial::text AS serial, c.organization_id, c.name, cu.code, cu.fraction::text AS fraction, c.balance::text AS balance
         FROM coins c JOIN currencies cu ON cu.id = c.currency_id WHERE c.serial = $1::bigint`,
      [serial],
    );
    return row;
  }

  /** The coin's balance before `from`: the sum of its earlier entries. */
  async balanceBefore(serial: string, from: string): Promise<string> {
    const [row] = await this.db.query<{ sum: string }>(
      `SELECT COALESCE(sum(amount), 0)::text AS sum FROM ledger_entries WHERE coin_serial = $1::bigint AND created_at < $2`,
      [serial, from],
    );
    return row.sum;
  }

  /** Up to `limit` entries in [from, to) after entry `afterId`, each with its operation and the other coin of its leg. */
  async page(serial: string, from: string, to: string, afterId: string, limit: number): Promise<StatementEntryRow[]> {
    return this.db.query<StatementEntryRow>(
      `SELECT e.id::text AS id, e.operation_id, o.type, o.status, o.description, e.created_at, e.amount::text AS amount,
              p.coin_serial::text AS counterparty_serial, p.organization_id AS counterparty_organization_id
         FROM ledger_entries e
         JOIN operations o ON o.id = e.operation_id
         LEFT JOIN LATERAL (
           SELECT x.coin_serial, x.organization_id FROM ledger_entries x
            WHERE x.operation_id = e.operation_id AND x.leg = e.leg AND x.coin_serial <> e.coin_serial LIMIT 1
         ) p ON true
        WHERE e.coin_serial = $1::bigint AND e.created_at >= $2 AND e.created_at < $3 AND e.id > $4::bigint
        ORDER BY e.id LIMIT $5`,
      [serial, from, to, afterId, limit],
    );
  }
}

export interface DataExportRow {
  id: string;
  filter: DataExportFilter;
  created_at: Date;
}

/** What an export covers, as stored: the caller's filter with the range's end fixed. */
export interface DataExportFilter {
  ids?: string[];
  types?: string[];
  statuses?: string[];
  createdAtFrom?: string;
  createdAtTo: string;
  coinSerials?: string[];
  currencyCodes?: string[];
}

/** The exports users started. */
@Injectable()
export class DataExportsRepository {
  constructor(private readonly db: Database) {}

  async insert(userId: string, organizationId: string, filter: DataExportFilter): Promise<DataExportRow> {
    const [row] = await this.db.query<DataExportRow>(
      `INSERT INTO data_exports (user_id, organization_id, filter) VALUES ($1, $2, $3::jsonb) RETURNING id, filter, created_at`,
      [userId, organizationId, JSON.stringify(filter)],
    );
    return row;
  }

  /** One of the user's exports, for the organization they act for. */
  async own(id: string, userId: string, organizationId: string): Promise<DataExportRow | undefined> {
    const [row] = await this.db.query<DataExportRow>(
      `SELECT id, filter, created_at FROM data_exports WHERE id = $1 AND user_id = $2 AND organization_id = $3`,
      [id, userId, organizationId],
    );
    return row;
  }

  /** The organization's client coins an export covers, by serial. */
  async coins(organizationId: string, serials: string[] | undefined, currencyCodes: string[] | undefined): Promise<StatementCoinRow[]> {
    return this.db.query<StatementCoinRow>(
      `SELECT c.serial::text AS serial, c.organization_id, c.name, cu.code, cu.fraction::text AS fraction, c.balance::text AS balance
         FROM coins c JOIN currencies cu ON cu.id = c.currency_id
        WHERE c.organization_id = $1 AND c.type = 'client'
          AND ($2::bigint[] IS NULL OR c.serial = ANY($2::bigint[])) AND ($3::text[] IS NULL OR cu.code = ANY($3::text[]))
        ORDER BY c.serial`,
      [organizationId, serials?.length ? serials : null, currencyCodes?.length ? currencyCodes : null],
    );
  }
}
