import { Injectable } from '@nestjs/common';
import { Database, RowCount } from '../../platform/database/database';
import type { InvoiceStatus } from './invoice-statuses';

export interface InvoiceItem {
  name: string;
  quantity: number;
  price: string;
}

/** An organization as an invoice's payer: the one whose coin paid it, or the caller paying it. */
export interface InvoicePayerRow {
  id: string;
  type: string;
  name: string;
  identification_status: string;
  contract_id: string;
  person_type: string;
  contract_name: string;
}

export interface InvoiceRow {
  id: string;
  organization_id: string;
  name: string;
  recipient_coin: string;
  issuer_id: string;
  issuer_sn: string;
  currency: string;
  symbol: string | null;
  fraction: string;
  amount: string;
  payer_contact: string | null;
  items: InvoiceItem[];
  data: Record<string, unknown> | null;
  status: InvoiceStatus;
  expires_at: Date | null;
  operation_id: string | null;
  paid_by_coin: string | null;
  template_id: string | null;
  created_by: string;
  /** The issuing user's name and organization's name. */
  created_by_name: string;
  merchant_name: string;
  /** The organization whose coin paid it; null until paid. */
  payer: InvoicePayerRow | null;
  created_at: Date;
  updated_at: Date;
  paid_at: Date | null;
}

export interface InvoiceSearch {
  organizationId?: string;
  /** The invoices this payer pays: its login is their payerContact, or a coin of its organization paid them. */
  payer?: { login: string; organizationId: string };
  id?: string;
  createdBy?: string;
  /** As they stand now: one past its time is expired, swept or not. */
  statuses?: InvoiceStatus[];
  issuerId?: string;
  amount?: string;
  createdAtFrom?: string;
  createdAtTo?: string;
  sort?: { key: 'created_at' | 'amount' | 'status'; direction: 'ASC' | 'DESC' };
}

export interface TemplateRow {
  id: string;
  organization_id: string;
  name: string;
  draft: Record<string, unknown>;
  created_by: string;
  created_at: Date;
}

/** An organization `po` (and its contract `pc`) as an InvoicePayerRow. */
const PAYER = `json_build_object('id', po.id, 'type', po.type, 'name', po.name, 'identification_status', po.identification_status,
  'contract_id', po.contract_id, 'person_type', po.person_type, 'contract_name', pc.name)`;
const INVOICE = `i.id, i.organization_id, i.name, i.recipient_coin::text AS recipient_coin, i.issuer_id, s.sn::text AS issuer_sn, c.code AS currency,
  c.symbol, c.fraction::text AS fraction,
  i.amount::text AS amount, i.payer_contact, i.items, i.data, i.status, i.expires_at, i.operation_id, i.paid_by_coin::text AS paid_by_coin,
  i.template_id, i.created_by, u.name AS created_by_name, o.name AS merchant_name, CASE WHEN po.id IS NULL THEN NULL ELSE ${PAYER} END AS payer,
  i.created_at, i.updated_at, i.paid_at`;
const INVOICES = `FROM invoices i JOIN issuers s ON s.id = i.issuer_id JOIN currencies c ON c.id = s.currency_id
  JOIN organizations o ON o.id = i.organization_id JOIN users u ON u.id = i.created_by
  LEFT JOIN coins pcoin ON pcoin.serial = i.paid_by_coin LEFT JOIN organizations po ON po.id = pcoin.organization_id
  LEFT JOIN contracts pc ON pc.id = po.contract_id`;
/** The status as it stands now: past its time, an invoice still marked initiated is expired (the sweep comes later). */
const STATUS_NOW = `CASE WHEN i.status = 'initiated' AND i.expires_at <= now() THEN 'expired' ELSE i.status END`;

/** Invoices and invoice templates. */
@Injectable()
export class InvoicesRepository {
  constructor(private readonly db: Database) {}

  async insert(values: {
    organizationId: string;
    name: string;
    recipientCoin: string;
    issuerId: string;
    amount: string;
    payerContact: string | null;
    items: InvoiceItem[];
    data: Record<string, unknown> | null;
    expiresAt: string | null;
    templateId: string | null;
    createdBy: string;
  }): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO invoices (organization_id, name, recipient_coin, issuer_id, amount, payer_contact, items, data, expires_at, template_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        values.organizationId,
        values.name,
        values.recipientCoin,
        values.issuerId,
        values.amount,
        values.payerContact,
        JSON.stringify(values.items),
        values.data === null ? null : JSON.stringify(values.data),
        values.expiresAt,
        values.templateId,
        values.createdBy,
      ],
    );
    return row.id;
  }

  async get(id: string, lock = false): Promise<InvoiceRow | undefined> {
    const [row] = await this.db.query<InvoiceRow>(`SELECT ${INVOICE} ${INVOICES} WHERE i.id = $1${lock ? ' FOR UPDATE OF i' : ''}`, [id]);
    return row;
  }

  async search(search: InvoiceSearch, offset: number, limit: number): Promise<{ count: RowCount; rows: InvoiceRow[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (search.organizationId) where.push(`i.organization_id = $${params.push(search.organizationId)}`);
    if (search.payer) {
      where.push(
        // ANY(ARRAY(…)), not IN (SELECT …): an array the planner can look up in invoices_paid_by_coin_idx, so the
        // two halves are a bitmap OR of two index scans (migrations/1763804340000-InvoicesPayerIndexes.ts).
        `(lower(i.payer_contact) = $${params.push(search.payer.login)} OR i.paid_by_coin = ANY(ARRAY(
          SELECT serial FROM coins WHERE organization_id = $${params.push(search.payer.organizationId)})))`,
      );
    }
    if (search.id) where.push(`i.id = $${params.push(search.id)}`);
    if (search.createdBy) where.push(`i.created_by = $${params.push(search.createdBy)}`);
    if (search.statuses?.length) where.push(`${STATUS_NOW} = ANY($${params.push(search.statuses)}::text[])`);
    if (search.issuerId) where.push(`i.issuer_id = $${params.push(search.issuerId)}`);
    if (search.amount) where.push(`i.amount = $${params.push(search.amount)}::numeric`);
    if (search.createdAtFrom) where.push(`i.created_at >= $${params.push(search.createdAtFrom)}::timestamptz`);
    if (search.createdAtTo) where.push(`i.created_at < $${params.push(search.createdAtTo)}::timestamptz`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const sort = search.sort ?? { key: 'created_at', direction: 'DESC' };
    const count = await this.db.countRows(`FROM invoices i ${clause}`, params);
    const rows = await this.db.query<InvoiceRow>(
      `SELECT ${INVOICE} ${INVOICES} ${clause} ORDER BY i.${sort.key} ${sort.direction}, i.id ${sort.direction} LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { count, rows };
  }

  /** An organization as an invoice's payer. */
  async payer(organizationId: string): Promise<InvoicePayerRow | undefined> {
    const [row] = await this.db.query<{ payer: InvoicePayerRow }>(
      `SELECT ${PAYER} AS payer FROM organizations po LEFT JOIN contracts pc ON pc.id = po.contract_id WHERE po.id = $1`,
      [organizationId],
    );
    return row?.payer;
  }

  async setStatus(id: string, status: InvoiceStatus): Promise<void> {
    await this.db.query(`UPDATE invoices SET status = $2, updated_at = now() WHERE id = $1`, [id, status]);
  }

  /**
   * Marks invoices paid, each by its operation and coin, in one statement — only those still payable (initiated, not
   * past their time): answers those it marked, with their time. The same invoice twice is marked once.
   */
  markPaid(payments: { id: string; operationId: string; coin: string }[]): Promise<{ id: string; paid_at: Date }[]> {
    return this.db.query<{ id: string; paid_at: Date }>(
      `UPDATE invoices i SET status = 'paid', operation_id = p.operation_id, paid_by_coin = p.coin, updated_at = now(), paid_at = now()
         FROM unnest($1::uuid[], $2::uuid[], $3::bigint[]) AS p(id, operation_id, coin)
        WHERE i.id = p.id AND i.status = 'initiated' AND (i.expires_at IS NULL OR i.expires_at > now())
        RETURNING i.id, i.paid_at`,
      [payments.map((p) => p.id), payments.map((p) => p.operationId), payments.map((p) => p.coin)],
    );
  }

  /** Invoices' status and expiry as they are now (why one could not be marked paid). */
  statuses(ids: string[]): Promise<Pick<InvoiceRow, 'id' | 'status' | 'expires_at'>[]> {
    return this.db.query(`SELECT id, status, expires_at FROM invoices WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /** Marks invoices whose time ran out as expired; answers them. */
  async expireDue(limit: number): Promise<InvoiceRow[]> {
    const ids = await this.db.query<{ id: string }>(
      `UPDATE invoices SET status = 'expired', updated_at = now()
        WHERE id IN (SELECT id FROM invoices WHERE status = 'initiated' AND expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [limit],
    );
    if (!ids.length) return [];
    return this.db.query<InvoiceRow>(`SELECT ${INVOICE} ${INVOICES} WHERE i.id = ANY($1::uuid[])`, [ids.map((r) => r.id)]);
  }

  async insertTemplate(values: {
    organizationId: string;
    name: string;
    draft: Record<string, unknown>;
    createdBy: string;
  }): Promise<TemplateRow | undefined> {
    const [row] = await this.db.query<TemplateRow>(
      `INSERT INTO invoice_templates (organization_id, name, draft, created_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, name) DO NOTHING RETURNING id, organization_id, name, draft, created_by, created_at`,
      [values.organizationId, values.name, JSON.stringify(values.draft), values.createdBy],
    );
    return row;
  }

  /** Renames and redrafts one of the organization's templates; undefined when it is not theirs, 'name_taken' on a clash. */
  async updateTemplate(
    organizationId: string,
    id: string,
    name: string,
    draft: Record<string, unknown>,
  ): Promise<TemplateRow | 'name_taken' | undefined> {
    const [clash] = await this.db.query<{ id: string }>(
      `SELECT id FROM invoice_templates WHERE organization_id = $1 AND name = $2 AND id <> $3`,
      [organizationId, name, id],
    );
    if (clash) return 'name_taken';
    const [row] = await this.db.query<TemplateRow>(
      `UPDATE invoice_templates SET name = $3, draft = $4 WHERE id = $1 AND organization_id = $2
       RETURNING id, organization_id, name, draft, created_by, created_at`,
      [id, organizationId, name, JSON.stringify(draft)],
    );
    return row;
  }

  async template(organizationId: string, id: string): Promise<TemplateRow | undefined> {
    const [row] = await this.db.query<TemplateRow>(
      `SELECT id, organization_id, name, draft, created_by, created_at FROM invoice_templates WHERE id = $1 AND organization_id = $2`,
      [id, organizationId],
    );
    return row;
  }

  async templates(organizationId: string, offset: number, limit: number): Promise<{ total: number; rows: TemplateRow[] }> {
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM invoice_templates WHERE organization_id = $1`, [
      organizationId,
    ]);
    const rows = await this.db.query<TemplateRow>(
      `SELECT id, organization_id, name, draft, created_by, created_at FROM invoice_templates WHERE organization_id = $1
        ORDER BY name, id LIMIT ${limit} OFFSET ${offset}`,
      [organizationId],
    );
    return { total: n, rows };
  }

  async deleteTemplate(organizationId: string, id: string): Promise<TemplateRow | undefined> {
    const [row] = await this.db.query<TemplateRow>(
      `DELETE FROM invoice_templates WHERE id = $1 AND organization_id = $2 RETURNING id, organization_id, name, draft, created_by, created_at`,
      [id, organizationId],
    );
    return row;
  }
}
