import { pageWindow } from '../common/paging.dto';
import type { ClientCoinDto, RequestViewDto } from '../common/request-view.dto';
import type { Database } from './database';
import { containing } from './search-sql';

/** The requests one organization sees: those whose `column` (its own, its desk's or its customer's) names it. */
export interface RequestVisibility {
  column: string;
  organizationId: string;
}

/** What a search of requests filters by; every request table has these columns under these names. */
export interface RequestSearch {
  /** Only this organization's requests (a member who is not staff). */
  visibleTo?: RequestVisibility;
  ids?: string[];
  coinSerials?: string[];
  orgIds?: string[];
  statuses?: string[];
  types?: string[];
  kinds?: string[];
  createdFrom?: string;
  createdTo?: string;
  text?: string;
  /** `custom_information` contains this text (case-insensitive). */
  customInformation?: string;
  direction: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

/**
 * What a request search's `filter` may hold: the fields of RequestFilterDto and each kind's own, and the family's names
 * for some of them (startCreatedDate, finishCreatedDate, requestStatuses).
 */
export type RequestFilter = Omit<RequestSearch, 'visibleTo' | 'direction' | 'offset' | 'limit'> & {
  startCreatedDate?: string;
  finishCreatedDate?: string;
  requestStatuses?: string[];
};

/** The search a `/view` of requests asks for, narrowed to what `visibleTo` sees; newest first unless sorted otherwise. */
export function requestSearchOf(
  view: RequestViewDto & { filter?: RequestFilter },
  visibleTo: RequestVisibility | undefined,
): RequestSearch {
  const { startCreatedDate, finishCreatedDate, requestStatuses, ...filter } = view.filter ?? {};
  const statuses = [...(filter.statuses ?? []), ...(requestStatuses ?? [])];
  return {
    ...filter,
    // The service's name wins when a filter gives both.
    createdFrom: filter.createdFrom ?? startCreatedDate,
    createdTo: filter.createdTo ?? finishCreatedDate,
    statuses: statuses.length ? statuses : undefined,
    visibleTo,
    direction: view.sort?.createdAt === 'asc' ? 'ASC' : 'DESC',
    ...pageWindow(view),
  };
}

/**
 * The WHERE clause of a search over a request table aliased `r` (columns id, coin_serial,
 * organization_id or the given organization columns, status, type, created_at,
 * custom_information) and its parameters; `textColumns` are searched by `text`. Each filter has
 * its index; free text narrows what the others found.
 */
function requestWhere(search: RequestSearch, orgColumns: string[], textColumns: string[]): { where: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (search.visibleTo) where.push(`r.${search.visibleTo.column} = $${params.push(search.visibleTo.organizationId)}`);
  if (search.ids?.length) where.push(`r.id = ANY($${params.push(search.ids)}::uuid[])`);
  if (search.coinSerials?.length) where.push(`r.coin_serial = ANY($${params.push(search.coinSerials)}::bigint[])`);
  if (search.orgIds?.length) {
    const p = params.push(search.orgIds);
    where.push(`(${orgColumns.map((c) => `r.${c} = ANY($${p}::uuid[])`).join(' OR ')})`);
  }
  if (search.statuses?.length) where.push(`r.status = ANY($${params.push(search.statuses)}::text[])`);
  if (search.types?.length) where.push(`r.type = ANY($${params.push(search.types)}::text[])`);
  if (search.kinds?.length) where.push(`r.kind = ANY($${params.push(search.kinds)}::text[])`);
  if (search.createdFrom) where.push(`r.created_at >= $${params.push(search.createdFrom)}::timestamptz`);
  if (search.createdTo) where.push(`r.created_at < $${params.push(search.createdTo)}::timestamptz`);
  if (search.text) {
    const p = params.push(containing(search.text));
    where.push(`(${textColumns.map((c) => `r.${c} ILIKE $${p}`).join(' OR ')})`);
  }
  if (search.customInformation) where.push(`r.custom_information ILIKE $${params.push(containing(search.customInformation))}`);
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

/**
 * The columns every request table (bank_top_up_requests, bank_withdrawals, cash_desk_operations) has, as its
 * repository reads them with its currency's code and fraction. `OperationId` is `string | null` where only the
 * decision posts the operation (a bank top-up request); elsewhere the request holds its operation from the start.
 */
export interface RequestRow<OperationId extends string | null = string> {
  id: string;
  coin_serial: string;
  amount: string;
  code: string;
  fraction: string;
  description: string | null;
  custom_information: string | null;
  decline_reason: string | null;
  operation_id: OperationId;
  created_by: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** How a request table is read: its `SELECT … FROM <table> r …`, and the columns `orgIds` and `text` search. */
export interface RequestTable {
  name: string;
  select: string;
  orgColumns: string[];
  textColumns: string[];
}

/** A request by id, if `visibleTo` (when given) sees it; `lock` takes it FOR UPDATE, so racing decisions queue. */
export async function requestById<T>(
  db: Database,
  table: RequestTable,
  id: string,
  visibleTo?: RequestVisibility,
  lock = false,
): Promise<T | undefined> {
  const params: unknown[] = [id];
  const own = visibleTo ? ` AND r.${visibleTo.column} = $${params.push(visibleTo.organizationId)}` : '';
  const [row] = await db.query<T>(`${table.select} WHERE r.id = $1${own}${lock ? ' FOR UPDATE OF r' : ''}`, params);
  return row;
}

/** A page of the requests the search finds, by creation time in its direction, and how many it finds in all. */
export async function searchRequests<T>(db: Database, table: RequestTable, search: RequestSearch): Promise<{ total: number; rows: T[] }> {
  const { where, params } = requestWhere(search, table.orgColumns, table.textColumns);
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table.name} r ${where}`, params);
  const rows = await db.query<T>(
    `${table.select} ${where} ORDER BY r.created_at ${search.direction}, r.id ${search.direction} LIMIT ${search.limit} OFFSET ${search.offset}`,
    params,
  );
  return { total: n, rows };
}

/** The fields every request record ends with, in this order: its text, its operation and its decision. */
export function requestRecordEnd<OperationId extends string | null>(row: RequestRow<OperationId>) {
  return {
    description: row.description,
    customInformation: row.custom_information,
    declineReason: row.decline_reason,
    operationId: row.operation_id,
    createdBy: row.created_by,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at ? row.decided_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * What a request table's SELECT adds to show its coin as the family's screens read it (`clientCoin`): these columns,
 * from these joins (the currency is joined as `cu` already).
 */
export const CLIENT_COIN_COLUMNS = `co.name AS coin_name, co.type AS coin_type, co.organization_id AS coin_organization_id,
       o.name AS organization_name, i.id AS issuer_id, i.sn::text AS issuer_sn, cu.symbol`;
export const CLIENT_COIN_JOINS = `JOIN coins co ON co.serial = r.coin_serial JOIN organizations o ON o.id = co.organization_id
  JOIN issuers i ON i.id = co.issuer_id`;

export interface ClientCoinRow {
  coin_serial: string;
  code: string;
  coin_name: string;
  coin_type: 'client' | 'system';
  coin_organization_id: string;
  organization_name: string;
  issuer_id: string;
  issuer_sn: string;
  symbol: string | null;
}

export function clientCoinOf(row: ClientCoinRow): ClientCoinDto {
  return {
    serial: row.coin_serial,
    name: row.coin_name,
    organizationId: row.coin_organization_id,
    organizationName: row.organization_name,
    technical: row.coin_type !== 'client',
    type: row.coin_type,
    issuer: { id: row.issuer_id, sn: Number(row.issuer_sn), currency: row.code, symbol: row.symbol },
  };
}
