import { Injectable } from '@nestjs/common';
import { Database, EXACT_COUNT_LIMIT, RowCount } from '../database/database';
import { OperationRow, SELECT_OPERATION } from './operation.projection';

export type OperationSortKey = 'createdAt' | 'status' | 'type';

/** A search over operations; `visibleTo` narrows it to the operations an organization takes part in. */
export interface OperationSearch {
  visibleTo?: string;
  ids?: string[];
  types?: string[];
  statuses?: string[];
  createdAtFrom?: string;
  createdAtTo?: string;
  coinSerials?: string[];
  issuerIds?: string[];
  currencyCodes?: string[];
  /** Operations any of these organizations takes part in. */
  orgIds?: string[];
  /** Operations made with one of these request identifiers (their Idempotency-Key). */
  requestIdentifiers?: string[];
  sort: { key: OperationSortKey; direction: 'ASC' | 'DESC' };
  offset: number;
  limit: number;
}

const SORT_COLUMNS: Record<OperationSortKey, string> = { createdAt: 'o.created_at', status: 'o.status', type: 'o.type' };

/**
 * Where an organization takes part: a ledger entry on one of its coins, or a hold on one. Each
 * entry and hold carries its coin's organization and its operation's date, so these two indexes
 * ((organization_id, created_at, operation_id) on each) answer a member's history in date order.
 */
const PARTICIPATION = ['ledger_entries', 'holds'];

/** Reads operations with their entries: one at a time, and the `/transactions/view` search. */
@Injectable()
export class OperationsRepository {
  constructor(private readonly db: Database) {}

  async get(id: string, visibleTo?: string): Promise<OperationRow | undefined> {
    const params: unknown[] = [id];
    const visible = visibleTo === undefined ? '' : ` AND ${this.takesPart(params.push(visibleTo))}`;
    const [row] = await this.db.query<OperationRow>(`${SELECT_OPERATION} WHERE o.id = $1${visible}`, params);
    return row;
  }

  async search(search: OperationSearch): Promise<{ rows: OperationRow[]; count: RowCount }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (search.ids?.length) where.push(`o.id = ANY($${params.push(search.ids)}::uuid[])`);
    if (search.types?.length) where.push(`o.type = ANY($${params.push(search.types)}::text[])`);
    if (search.statuses?.length) where.push(`o.status = ANY($${params.push(search.statuses)}::text[])`);
    if (search.orgIds?.length) where.push(this.takesPart(params.push(search.orgIds), 'ANY'));
    if (search.requestIdentifiers?.length) where.push(`o.request_identifier = ANY($${params.push(search.requestIdentifiers)}::text[])`);
    /** Filters the participation indexes answer alone, without reading operations. */
    const onlyDates = where.length === 0 && !search.coinSerials?.length && !search.issuerIds?.length && !search.currencyCodes?.length;
    const dates: string[] = [];
    if (search.createdAtFrom) dates.push(`created_at >= $${params.push(search.createdAtFrom)}::timestamptz`);
    if (search.createdAtTo) dates.push(`created_at < $${params.push(search.createdAtTo)}::timestamptz`);
    where.push(...dates.map((d) => `o.${d}`));
    if (search.coinSerials?.length) {
      const p = params.push(search.coinSerials);
      where.push(`(o.from_coin = ANY($${p}::bigint[]) OR o.to_coin = ANY($${p}::bigint[]))`);
    }
    if (search.issuerIds?.length) {
      const p = params.push(search.issuerIds);
      where.push(
        `EXISTS (SELECT 1 FROM coins k WHERE k.serial IN (o.from_coin, o.to_coin) AND k.type = 'client' AND k.issuer_id = ANY($${p}::uuid[]))`,
      );
    }
    if (search.currencyCodes?.length) {
      where.push(`o.currency_id IN (SELECT id FROM currencies WHERE code = ANY($${params.push(search.currencyCodes)}::text[]))`);
    }
    const own = search.visibleTo === undefined ? undefined : params.push(search.visibleTo);
    const clause = (extra: string[]) => (extra.length ? `WHERE ${extra.join(' AND ')}` : '');
    const all = clause([...(own === undefined ? [] : [this.takesPart(own)]), ...where]);
    const { key, direction } = search.sort;
    const order =
      key === 'createdAt'
        ? `o.created_at ${direction}, o.id ${direction}`
        : `${SORT_COLUMNS[key]} ${direction}, o.created_at DESC, o.id DESC`;
    const from = 'FROM operations o';
    const count =
      own !== undefined && onlyDates ? await this.memberCount(own, dates, params) : await this.db.countRows(`${from} ${all}`, params);

    let sql = `${SELECT_OPERATION} ${all} ORDER BY ${order} LIMIT ${search.limit} OFFSET ${search.offset}`;
    if (own !== undefined && key === 'createdAt') {
      // A member's page by date: walk each participation index only as far as the page needs,
      // instead of sorting every operation the organization ever took part in.
      const needed = search.offset + search.limit;
      const branch = (table: string) =>
        onlyDates
          ? `(SELECT DISTINCT p.created_at, p.operation_id FROM ${table} p ${clause([`p.organization_id = $${own}`, ...dates.map((d) => `p.${d}`)])}
               ORDER BY p.created_at ${direction}, p.operation_id ${direction} LIMIT ${needed})`
          : `(SELECT DISTINCT p.created_at, p.operation_id FROM ${table} p JOIN operations o ON o.id = p.operation_id
               ${clause([`p.organization_id = $${own}`, ...where])}
               ORDER BY p.created_at ${direction}, p.operation_id ${direction} LIMIT ${needed})`;
      sql = `${SELECT_OPERATION} WHERE o.id IN (SELECT operation_id FROM (${PARTICIPATION.map(branch).join(' UNION ')}) t)
              ORDER BY ${order} LIMIT ${search.limit} OFFSET ${search.offset}`;
    }
    const rows = await this.db.query<OperationRow>(sql, params);
    return { rows, count };
  }

  /** `o` takes part for the organization in parameter $n (or, with `ANY`, one of the organizations in it). */
  private takesPart(n: number, any?: 'ANY'): string {
    const org = any ? `ANY($${n}::uuid[])` : `$${n}`;
    return `(${PARTICIPATION.map((t) => `EXISTS (SELECT 1 FROM ${t} p WHERE p.operation_id = o.id AND p.organization_id = ${org})`).join(' OR ')})`;
  }

  /**
   * A member's total when only dates filter it. Without dates, the planner's estimate of the
   * organization's entries decides first: far beyond EXACT_COUNT_LIMIT (an organization with a
   * long history, which the statistics know by name), that estimate is the answer and nothing is
   * scanned. Otherwise each participation index is counted index-only up to EXACT_COUNT_LIMIT
   * distinct operations; past the limit the total is the estimate.
   */
  private async memberCount(own: number, dates: string[], params: unknown[]): Promise<RowCount> {
    // Only dates and the organization are parameters here, so every one of them is referenced.
    const where = [`p.organization_id = $${own}`, ...dates.map((d) => `p.${d}`)].join(' AND ');
    const planned = () => this.db.plannedRows(`FROM ledger_entries p WHERE ${where}`, params);
    if (dates.length === 0) {
      const estimate = await planned();
      if (estimate > 10 * EXACT_COUNT_LIMIT) return { total: estimate, exact: false };
    }
    const side = (table: string) =>
      `(SELECT DISTINCT p.created_at, p.operation_id FROM ${table} p WHERE ${where}
         ORDER BY p.created_at DESC, p.operation_id DESC LIMIT ${EXACT_COUNT_LIMIT + 1})`;
    const [{ n }] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (${PARTICIPATION.map(side).join(' UNION ')}) t`,
      params,
    );
    if (n <= EXACT_COUNT_LIMIT) return { total: n, exact: true };
    return { total: Math.max(EXACT_COUNT_LIMIT + 1, await planned()), exact: false };
  }
}
