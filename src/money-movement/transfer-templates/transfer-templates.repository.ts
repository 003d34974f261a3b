import { Injectable } from '@nestjs/common';
import type { NameSort } from '../../platform/common/paging.dto';
import { Database, RowCount } from '../../platform/database/database';
import { containing, nameSortOrder } from '../../platform/database/search-sql';

export interface TransferTemplateRow {
  id: string;
  name: string;
  payer_coin: string;
  payee_coin: string;
  amount: string;
  description: string | null;
  custom_information: string | null;
  created_at: Date;
  /** The payer coin's currency and issuer. */
  code: string;
  symbol: string | null;
  fraction: string;
  issuer_id: string;
  issuer_sn: string;
  /** The payee coin's issuer and currency. */
  payee_issuer_id: string;
  payee_issuer_sn: string;
  payee_code: string;
  payee_symbol: string | null;
  /** The name and type of the organization owning the payee coin. */
  payee_name: string;
  payee_type: string;
}

export interface NewTransferTemplate {
  userId: string;
  organizationId: string;
  name: string;
  payerCoin: string;
  payeeCoin: string;
  amount: string;
  description: string | null;
  customInformation: string | null;
}

export interface TemplateSearch {
  userId: string;
  organizationId: string;
  name?: string;
  payerCoins?: string[];
  payeeCoins?: string[];
  /** Only SMART_CARD narrows: no template pays from a card. */
  paymentToolType?: 'COIN' | 'SMART_CARD';
  sort: NameSort;
  offset: number;
  limit: number;
}

/** A template with its payer coin's currency and issuer, its payee coin's issuer and currency, and its payee, from `transfer_templates t`. */
const SELECT = `SELECT t.id, t.name, t.payer_coin::text AS payer_coin, t.payee_coin::text AS payee_coin, t.amount::text AS amount,
       t.description, t.custom_information, t.created_at, cu.code, cu.symbol, cu.fraction::text AS fraction,
       c.issuer_id, i.sn::text AS issuer_sn, pc.issuer_id AS payee_issuer_id, pi.sn::text AS payee_issuer_sn,
       pcu.code AS payee_code, pcu.symbol AS payee_symbol, po.name AS payee_name, po.type AS payee_type
  FROM transfer_templates t JOIN coins c ON c.serial = t.payer_coin JOIN currencies cu ON cu.id = c.currency_id
  JOIN issuers i ON i.id = c.issuer_id
  JOIN coins pc ON pc.serial = t.payee_coin JOIN issuers pi ON pi.id = pc.issuer_id JOIN currencies pcu ON pcu.id = pc.currency_id
  JOIN organizations po ON po.id = pc.organization_id`;

/** Saved transfers of a user, for the organization they acted for. */
@Injectable()
export class TransferTemplatesRepository {
  constructor(private readonly db: Database) {}

  /** Inserts a template; undefined when the owner already has one of this name (whatever its case). */
  async insert(t: NewTransferTemplate): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO transfer_templates (user_id, organization_id, name, payer_coin, payee_coin, amount, description, custom_information)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (user_id, organization_id, lower(name)) DO NOTHING RETURNING id`,
      [t.userId, t.organizationId, t.name, t.payerCoin, t.payeeCoin, t.amount, t.description, t.customInformation],
    );
    return row?.id;
  }

  async own(userId: string, organizationId: string, id: string): Promise<TransferTemplateRow | undefined> {
    const [row] = await this.db.query<TransferTemplateRow>(`${SELECT} WHERE t.id = $1 AND t.user_id = $2 AND t.organization_id = $3`, [
      id,
      userId,
      organizationId,
    ]);
    return row;
  }

  /** Changes what is given of a template's name, amount and description; false when it is not the owner's. */
  async update(
    userId: string,
    organizationId: string,
    id: string,
    change: { name?: string; amount?: string; description?: string | null },
  ): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE transfer_templates SET name = COALESCE($4, name), amount = COALESCE($5::numeric, amount),
              description = CASE WHEN $6::boolean THEN $7 ELSE description END
        WHERE id = $1 AND user_id = $2 AND organization_id = $3 RETURNING id`,
      [
        id,
        userId,
        organizationId,
        change.name ?? null,
        change.amount ?? null,
        change.description !== undefined,
        change.description ?? null,
      ],
    );
    return rows.length > 0;
  }

  async delete(userId: string, organizationId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      'DELETE FROM transfer_templates WHERE id = $1 AND user_id = $2 AND organization_id = $3 RETURNING id',
      [id, userId, organizationId],
    );
    return rows.length > 0;
  }

  async search(search: TemplateSearch): Promise<{ rows: TransferTemplateRow[]; count: RowCount }> {
    const params: unknown[] = [search.userId, search.organizationId];
    const where = ['t.user_id = $1', 't.organization_id = $2'];
    if (search.name) where.push(`t.name ILIKE $${params.push(containing(search.name))}`);
    if (search.payerCoins?.length) where.push(`t.payer_coin = ANY($${params.push(search.payerCoins)}::bigint[])`);
    if (search.payeeCoins?.length) where.push(`t.payee_coin = ANY($${params.push(search.payeeCoins)}::bigint[])`);
    if (search.paymentToolType === 'SMART_CARD') where.push('false');
    const clause = `WHERE ${where.join(' AND ')}`;
    const count = await this.db.countRows(`FROM transfer_templates t ${clause}`, params);
    const rows = await this.db.query<TransferTemplateRow>(
      `${SELECT} ${clause} ORDER BY ${nameSortOrder('t', search.sort)} LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { rows, count };
  }
}
