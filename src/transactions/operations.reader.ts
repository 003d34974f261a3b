import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { formatAmount, scaleOf } from '../common/money';
import { Page, pageOf } from '../common/validators';
import { countRows, estimateRows, EXACT_COUNT_LIMIT, query } from '../database/sql';
import type { PostedOperation } from '../ledger/ledger.service';
import { OperationDto, TransactionViewDto } from './dto/transaction.dto';

type OperationRow = PostedOperation;

const SELECT = `SELECT o.id, o.type, o.status, o.request_identifier, o.request_status, o.created_at, o.updated_at, o.description,
       o.custom_information, o.amount::text AS amount, o.commission::text AS commission, c.code, c.fraction::text AS fraction,
       o.from_coin::text AS from_coin, o.to_coin::text AS to_coin, o.from_organization_id, o.to_organization_id, o.reversal_of,
       (SELECT json_agg(json_build_object('id', e.id::text, 'coinSerial', e.coin_serial::text, 'amount', e.amount::text,
                                          'createdAt', e.created_at) ORDER BY e.id)
          FROM ledger_entries e WHERE e.operation_id = o.id) AS entries
  FROM operations o JOIN currencies c ON c.id = o.currency_id`;

const SORT_COLUMNS = { createdAt: 'o.created_at', status: 'o.status', type: 'o.type' } as const;

/** Reads operations ("processes") with their ledger entries, as each caller may see them. */
@Injectable()
export class OperationsReader {
  constructor(private readonly dataSource: DataSource) {}

  /** One operation, read inside the caller's transaction when given one. */
  async get(id: string, m?: EntityManager): Promise<OperationDto> {
    const [row] = await query<OperationRow>(m ?? this.dataSource, `${SELECT} WHERE o.id = $1`, [id]);
    if (!row) throw ApiError.notFound('exception.transaction.not_found', 'No such transaction');
    return this.describe(row);
  }

  /** An operation the principal may see: auditors see all, others only their organization's. */
  async getVisible(id: string, principal: Principal): Promise<OperationDto> {
    const operation = await this.get(id);
    if (
      !this.seesAll(principal) &&
      operation.from?.organizationId !== principal.organizationId &&
      operation.to?.organizationId !== principal.organizationId
    ) {
      throw ApiError.notFound('exception.transaction.not_found', 'No such transaction');
    }
    return operation;
  }

  async view(dto: TransactionViewDto, principal: Principal): Promise<Page<OperationDto>> {
    const where: string[] = [];
    const params: unknown[] = [];
    const f = dto.filter ?? {};
    const own = this.seesAll(principal) ? undefined : params.push(principal.organizationId);
    if (f.ids?.length) where.push(`o.id = ANY($${params.push(f.ids)}::uuid[])`);
    if (f.types?.length) where.push(`o.type = ANY($${params.push(f.types)}::text[])`);
    if (f.statuses?.length) where.push(`o.status = ANY($${params.push(f.statuses)}::text[])`);
    /** Filters the (organization, created_at) indexes answer alone, without reading the table. */
    const indexed = where.length === 0 && !f.coinSerials?.length && !f.issuerIds?.length && !f.currencyCodes?.length;
    if (f.createdAtFrom) where.push(`o.created_at >= $${params.push(f.createdAtFrom)}::timestamptz`);
    if (f.createdAtTo) where.push(`o.created_at < $${params.push(f.createdAtTo)}::timestamptz`);
    if (f.coinSerials?.length) {
      const p = params.push(f.coinSerials);
      where.push(`(o.from_coin = ANY($${p}::bigint[]) OR o.to_coin = ANY($${p}::bigint[]))`);
    }
    if (f.issuerIds?.length) {
      const p = params.push(f.issuerIds);
      where.push(
        `EXISTS (SELECT 1 FROM coins k WHERE k.serial IN (o.from_coin, o.to_coin) AND k.type = 'client' AND k.issuer_id = ANY($${p}::uuid[]))`,
      );
    }
    if (f.currencyCodes?.length) where.push(`c.code = ANY($${params.push(f.currencyCodes)}::text[])`);
    const and = (extra: string[]) => (extra.length ? `WHERE ${extra.join(' AND ')}` : '');
    const visible = own === undefined ? [] : [`(o.from_organization_id = $${own} OR o.to_organization_id = $${own})`];
    const clause = and([...visible, ...where]);
    const sortKey = (['status', 'type', 'createdAt'] as const).find((k) => dto.sort?.[k] !== undefined) ?? 'createdAt';
    const direction = (dto.sort?.[sortKey] ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
    const order =
      sortKey === 'createdAt'
        ? `o.created_at ${direction}, o.id ${direction}`
        : `${SORT_COLUMNS[sortKey]} ${direction}, o.created_at DESC, o.id DESC`;
    const pageSize = dto.pageSize ?? 20;
    const offset = (dto.pageNumber ?? 0) * pageSize;
    const from = 'FROM operations o JOIN currencies c ON c.id = o.currency_id';
    const count =
      own !== undefined && indexed
        ? await this.memberCount(own, where, params, `${from} ${clause}`)
        : await countRows(this.dataSource, `${from} ${clause}`, params);
    let sql = `${SELECT} ${clause} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${offset}`;
    if (own !== undefined && sortKey === 'createdAt') {
      // A member's page by date: walk the two (organization, created_at) indexes, each only as far as
      // the page needs, instead of sorting every operation the organization ever had.
      const branch = (side: string) =>
        `(SELECT o.id ${from} ${and([`o.${side}_organization_id = $${own}`, ...where])} ORDER BY ${order} LIMIT ${offset + pageSize})`;
      sql = `${SELECT} WHERE o.id IN (${branch('from')} UNION ${branch('to')}) ORDER BY ${order} LIMIT ${pageSize} OFFSET ${offset}`;
    }
    const rows = await query<OperationRow>(this.dataSource, sql, params);
    return pageOf(
      dto,
      count.total,
      rows.map((r) => this.describe(r)),
      count.exact,
    );
  }

  /**
   * A member's total when only dates filter it. Each side's (organization, created_at) index is
   * counted index-only up to EXACT_COUNT_LIMIT (a scan of the table for the organization's first
   * thousand matches costs 15–25 times more once it holds a million operations). Past the limit on
   * either side the total is the planner's estimate; below it, operations on both sides (transfers
   * within the organization) are counted once, which reads at most EXACT_COUNT_LIMIT rows.
   */
  private async memberCount(
    own: number,
    dates: string[],
    params: unknown[],
    fromWhere: string,
  ): Promise<{ total: number; exact: boolean }> {
    const on = (...conditions: string[]) => [...conditions, ...dates].join(' AND ');
    const side = (s: string) =>
      `(SELECT count(*) FROM (SELECT 1 FROM operations o WHERE ${on(`o.${s}_organization_id = $${own}`)} LIMIT ${EXACT_COUNT_LIMIT + 1}) t)::int`;
    const [{ sent, received }] = await query<{ sent: number; received: number }>(
      this.dataSource,
      `SELECT ${side('from')} AS sent, ${side('to')} AS received`,
      params,
    );
    if (sent <= EXACT_COUNT_LIMIT && received <= EXACT_COUNT_LIMIT) {
      let both = 0;
      if (sent > 0 && received > 0) {
        [{ both }] = await query<{ both: number }>(
          this.dataSource,
          `SELECT count(*)::int AS both FROM operations o WHERE ${on(`o.from_organization_id = $${own}`, `o.to_organization_id = $${own}`)}`,
          params,
        );
      }
      const total = sent + received - both;
      if (total <= EXACT_COUNT_LIMIT) return { total, exact: true };
    }
    return estimateRows(this.dataSource, fromWhere, params);
  }

  private seesAll(principal: Principal): boolean {
    return principal.permissions.has('TRANSACTION_AUDITOR');
  }

  /** An operation as clients see it; also used for the answer of the request that just posted it. */
  describe(row: OperationRow): OperationDto {
    const scale = scaleOf(row.fraction);
    return {
      id: row.id,
      type: row.type,
      status: row.status,
      requestIdentifier: row.request_identifier,
      requestStatus: row.request_status,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      description: row.description,
      customInformation: row.custom_information,
      amount: formatAmount(row.amount, scale),
      commission: formatAmount(row.commission, scale),
      currency: row.code,
      from: row.from_coin ? { serial: row.from_coin, organizationId: row.from_organization_id } : null,
      to: row.to_coin ? { serial: row.to_coin, organizationId: row.to_organization_id } : null,
      reversalOf: row.reversal_of,
      transactions: (row.entries ?? []).map((e) => ({
        id: e.id,
        coinSerial: e.coinSerial,
        amount: formatAmount(e.amount, scale),
        createdAt: new Date(e.createdAt).toISOString(),
      })),
    };
  }
}
