/** What a search of requests filters by; every request table has these columns under these names. */
export interface RequestSearch {
  /** Only this organization's requests (a member who is not staff). */
  visibleTo?: { column: string; organizationId: string };
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

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The WHERE clause of a search over a request table aliased `r` (columns id, coin_serial,
 * organization_id or the given organization columns, status, type, created_at,
 * custom_information) and its parameters; `textColumns` are searched by `text`. Each filter has
 * its index; free text narrows what the others found.
 */
export function requestWhere(search: RequestSearch, orgColumns: string[], textColumns: string[]): { where: string; params: unknown[] } {
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
    const p = params.push(like(search.text));
    where.push(`(${textColumns.map((c) => `r.${c} ILIKE $${p}`).join(' OR ')})`);
  }
  if (search.customInformation) where.push(`r.custom_information ILIKE $${params.push(like(search.customInformation))}`);
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}
