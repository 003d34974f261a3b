import { Injectable } from '@nestjs/common';
import { Database, RowCount } from '../../platform/database/database';
import type { VoucherStatus } from './dto/voucher.dto';

export interface VoucherRow {
  id: string;
  /** The number people type to redeem it (16 random digits), as text. */
  serial: string;
  /** The code's SHA-256 (hex). */
  code_hash: string;
  prepaid_name: string;
  amount: string;
  currency_id: string;
  code: string;
  symbol: string | null;
  fraction: string;
  /** The issuer whose reserve holds the voucher's money. */
  issuer_id: string;
  issuer_sn: string;
  status: VoucherStatus;
  organization_id: string;
  coin_serial: string;
  reserve_coin: string;
  expires_at: Date | null;
  /** Past its expiresAt, by the database's clock. */
  due: boolean;
  operation_id: string;
  redeemed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewVoucher {
  id: string;
  codeHash: string;
  prepaidName: string;
  amount: string;
  currencyId: string;
  organizationId: string;
  coinSerial: string;
  reserveCoin: string;
  createdBy: string;
  expiresAt: string | null;
  operationId: string;
}

export interface VoucherSearch {
  organizationId: string;
  statuses?: string[];
  ids?: string[];
  coinSerials?: string[];
  /** true: redeemed only; false: not redeemed only. */
  activated?: boolean;
  createdAtFrom?: string;
  createdAtTo?: string;
  activatedAtFrom?: string;
  activatedAtTo?: string;
  direction: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

const SELECT = `SELECT v.id, v.serial::text AS serial, v.code_hash, v.prepaid_name, v.amount::text AS amount, v.currency_id, cu.code, cu.symbol, cu.fraction::text AS fraction,
       v.status, v.organization_id, v.coin_serial::text AS coin_serial, v.reserve_coin::text AS reserve_coin, v.expires_at,
       (v.expires_at IS NOT NULL AND v.expires_at <= now()) AS due, v.operation_id, v.redeemed_at, v.created_at, v.updated_at,
       i.id AS issuer_id, i.sn::text AS issuer_sn
  FROM vouchers v JOIN currencies cu ON cu.id = v.currency_id JOIN coins r ON r.serial = v.reserve_coin JOIN issuers i ON i.id = r.issuer_id`;

/**
 * vouchers; reads coins to find where a voucher's money returns, and the issuer of its reserve coin (read-only views
 * of the coins' and issuers' tables).
 */
@Injectable()
export class VouchersRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the voucher with a serial drawn at random by the column's default; should the draw hit a serial in use
   * (about one in 10^10 while a million vouchers exist), it draws again.
   */
  async insert(v: NewVoucher): Promise<void> {
    for (;;) {
      const inserted = await this.db.query(
        `INSERT INTO vouchers (id, code_hash, prepaid_name, amount, currency_id, organization_id, coin_serial, reserve_coin, created_by,
                               expires_at, operation_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (serial) DO NOTHING RETURNING id`,
        [
          v.id,
          v.codeHash,
          v.prepaidName,
          v.amount,
          v.currencyId,
          v.organizationId,
          v.coinSerial,
          v.reserveCoin,
          v.createdBy,
          v.expiresAt,
          v.operationId,
        ],
      );
      if (inserted.length) return;
    }
  }

  /** The voucher of a serial. */
  async bySerial(serial: string): Promise<VoucherRow | undefined> {
    const [row] = await this.db.query<VoucherRow>(`${SELECT} WHERE v.serial = $1`, [serial]);
    return row;
  }

  async byId(id: string): Promise<VoucherRow | undefined> {
    const [row] = await this.db.query<VoucherRow>(`${SELECT} WHERE v.id = $1`, [id]);
    return row;
  }

  /** The voucher of a code (by its hash), read without a lock. */
  async byCodeHash(codeHash: string): Promise<VoucherRow | undefined> {
    const [row] = await this.db.query<VoucherRow>(`${SELECT} WHERE v.code_hash = $1`, [codeHash]);
    return row;
  }

  /** The voucher of a code (by its hash), locked: parallel redemptions of one code wait here, one after another. */
  async lockByCodeHash(codeHash: string): Promise<VoucherRow | undefined> {
    const [row] = await this.db.query<VoucherRow>(`${SELECT} WHERE v.code_hash = $1 FOR UPDATE OF v`, [codeHash]);
    return row;
  }

  /** One of the organization's vouchers, locked. */
  async lockOwn(organizationId: string, id: string): Promise<VoucherRow | undefined> {
    const [row] = await this.db.query<VoucherRow>(`${SELECT} WHERE v.id = $1 AND v.organization_id = $2 FOR UPDATE OF v`, [
      id,
      organizationId,
    ]);
    return row;
  }

  /**
   * The next pending voucher past its expiry after `after` (by expiry, then id), locked; vouchers another
   * instance is expiring right now are skipped (SKIP LOCKED), so any number of instances sweep safely.
   */
  async lockNextDue(after?: { expiresAt: Date; id: string }): Promise<VoucherRow | undefined> {
    const [row] = await this.db.query<VoucherRow>(
      `${SELECT} WHERE v.status = 'pending' AND v.expires_at <= now()
          AND ($1::timestamptz IS NULL OR (v.expires_at, v.id) > ($1::timestamptz, $2::uuid))
        ORDER BY v.expires_at, v.id LIMIT 1 FOR UPDATE OF v SKIP LOCKED`,
      [after?.expiresAt ?? null, after?.id ?? null],
    );
    return row;
  }

  /**
   * Marks vouchers redeemed, each into its coin by its operation, in one statement — only those still pending and not
   * past their expiry: answers the ids it marked. The same voucher twice is marked once.
   */
  async markRedeemed(redemptions: { id: string; coinSerial: string; operationId: string }[]): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE vouchers v SET status = 'processed', redeemed_coin = r.coin, redeemed_at = now(), closing_operation_id = r.operation_id, updated_at = now()
         FROM unnest($1::uuid[], $2::bigint[], $3::uuid[]) AS r(id, coin, operation_id)
        WHERE v.id = r.id AND v.status = 'pending' AND (v.expires_at IS NULL OR v.expires_at > now())
        RETURNING v.id`,
      [redemptions.map((r) => r.id), redemptions.map((r) => r.coinSerial), redemptions.map((r) => r.operationId)],
    );
    return rows.map((r) => r.id);
  }

  /** The voucher an operation bought (`operation_id`) or closed (`closing_operation_id`), locked; undefined for none. */
  async lockByOperation(operationId: string): Promise<(VoucherRow & { bought: boolean }) | undefined> {
    const [row] = await this.db.query<VoucherRow & { bought: boolean }>(
      `${SELECT.replace('SELECT ', 'SELECT v.operation_id = $1 AS bought, ')}
        WHERE v.operation_id = $1 OR v.closing_operation_id = $1 FOR UPDATE OF v`,
      [operationId],
    );
    return row;
  }

  async markReturned(id: string, status: 'blocked' | 'expired', operationId: string): Promise<void> {
    await this.db.query(
      `UPDATE vouchers SET status = $2, closing_operation_id = $3, updated_at = now() WHERE id = $1 AND status = 'pending'`,
      [id, status, operationId],
    );
  }

  /**
   * Where a voucher's money returns: the creator's coin, or when that coin is closed, the creator organization's
   * main coin of the voucher's currency if it is open; undefined when neither can receive it.
   */
  async returnCoin(voucher: VoucherRow): Promise<string | undefined> {
    const [row] = await this.db.query<{ serial: string }>(
      `SELECT serial::text AS serial FROM coins
        WHERE type = 'client' AND closed_at IS NULL AND organization_id = $2 AND currency_id = $3 AND (serial = $1 OR main)
        ORDER BY serial = $1 DESC LIMIT 1`,
      [voucher.coin_serial, voucher.organization_id, voucher.currency_id],
    );
    return row?.serial;
  }

  async search(search: VoucherSearch): Promise<{ rows: VoucherRow[]; count: RowCount }> {
    const params: unknown[] = [search.organizationId];
    const where = ['v.organization_id = $1'];
    if (search.statuses?.length) where.push(`v.status = ANY($${params.push(search.statuses)}::text[])`);
    if (search.ids?.length) where.push(`v.id = ANY($${params.push(search.ids)}::uuid[])`);
    if (search.coinSerials?.length) where.push(`v.coin_serial = ANY($${params.push(search.coinSerials)}::bigint[])`);
    if (search.activated !== undefined) where.push(search.activated ? `v.status = 'processed'` : `v.status <> 'processed'`);
    if (search.createdAtFrom) where.push(`v.created_at >= $${params.push(search.createdAtFrom)}::timestamptz`);
    if (search.createdAtTo) where.push(`v.created_at < $${params.push(search.createdAtTo)}::timestamptz`);
    if (search.activatedAtFrom) where.push(`v.redeemed_at >= $${params.push(search.activatedAtFrom)}::timestamptz`);
    if (search.activatedAtTo) where.push(`v.redeemed_at < $${params.push(search.activatedAtTo)}::timestamptz`);
    const clause = `WHERE ${where.join(' AND ')}`;
    const count = await this.db.countRows(`FROM vouchers v ${clause}`, params);
    const rows = await this.db.query<VoucherRow>(
      `${SELECT} ${clause} ORDER BY v.created_at ${search.direction}, v.id ${search.direction} LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { rows, count };
  }
}
