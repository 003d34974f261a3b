import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import { containing } from '../../platform/database/search-sql';

export type BankAccountStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

export interface BankAccountRow {
  id: string;
  organization_id: string;
  name: string | null;
  iban: string;
  bic: string | null;
  account_holder: string;
  bank_name: string | null;
  bank_id: string | null;
  status: BankAccountStatus;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface BankAccountValues {
  name: string | null;
  iban: string;
  bic: string | null;
  accountHolder: string;
  bankName: string | null;
  bankId: string | null;
}

/** What a search of bank accounts filters by (every one of them narrows); absent: any. */
export interface BankAccountSearch {
  /** Only this organization's accounts; absent: every organization's (staff). */
  organizationId?: string;
  statuses?: BankAccountStatus[];
  userIds?: string[];
  /** Parts of the IBAN (the account's number), each of which it contains. */
  ibanParts: string[];
  /** Parts of the BIC, each of which it contains. */
  bicParts: string[];
  /** Part of the bank's name, whatever the case. */
  bankName?: string;
  sort: 'created_at' | 'bank_name' | 'status';
  direction: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

const COLUMNS =
  'id, organization_id, name, iban, bic, account_holder, bank_name, bank_id, status, created_by::text AS created_by, created_at, updated_at';

/** bank_accounts: each organization's accounts for withdrawals; read within the owner's organization, or by staff. */
@Injectable()
export class BankAccountsRepository {
  constructor(private readonly db: Database) {}

  /** Inserts the account; undefined when the organization already has one with this IBAN. */
  async insert(
    organizationId: string,
    v: BankAccountValues,
    status: BankAccountStatus,
    createdBy: string,
  ): Promise<BankAccountRow | undefined> {
    const [row] = await this.db.query<BankAccountRow>(
      `INSERT INTO bank_accounts (organization_id, name, iban, bic, account_holder, bank_name, bank_id, status, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (organization_id, iban) DO NOTHING RETURNING ${COLUMNS}`,
      [organizationId, v.name, v.iban, v.bic, v.accountHolder, v.bankName, v.bankId, status, createdBy],
    );
    return row;
  }

  /** The account, of this organization only when one is given; `lock` holds it until the transaction ends. */
  async get(organizationId: string | undefined, id: string, lock = false): Promise<BankAccountRow | undefined> {
    const [row] = await this.db.query<BankAccountRow>(
      `SELECT ${COLUMNS} FROM bank_accounts WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)${lock ? ' FOR UPDATE' : ''}`,
      [id, organizationId ?? null],
    );
    return row;
  }

  async byIban(organizationId: string, iban: string): Promise<BankAccountRow | undefined> {
    const [row] = await this.db.query<BankAccountRow>(`SELECT ${COLUMNS} FROM bank_accounts WHERE organization_id = $1 AND iban = $2`, [
      organizationId,
      iban,
    ]);
    return row;
  }

  /** Changes the account; undefined when it is not the organization's or another of its accounts has the new IBAN. */
  async update(organizationId: string, id: string, v: BankAccountValues, status: BankAccountStatus): Promise<BankAccountRow | undefined> {
    const [row] = await this.db.query<BankAccountRow>(
      `UPDATE bank_accounts SET name = $3, iban = $4, bic = $5, account_holder = $6, bank_name = $7, bank_id = $8, status = $9,
              updated_at = now()
        WHERE id = $1 AND organization_id = $2
          AND NOT EXISTS (SELECT 1 FROM bank_accounts other WHERE other.organization_id = $2 AND other.iban = $4 AND other.id <> $1)
        RETURNING ${COLUMNS}`,
      [id, organizationId, v.name, v.iban, v.bic, v.accountHolder, v.bankName, v.bankId, status],
    );
    return row;
  }

  /** Records a decision of staff on the account. */
  async decide(id: string, status: BankAccountStatus, by: string): Promise<BankAccountRow> {
    const [row] = await this.db.query<BankAccountRow>(
      `UPDATE bank_accounts SET status = $2, decided_by = $3, decided_at = now(), updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, status, by],
    );
    return row;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>('DELETE FROM bank_accounts WHERE id = $1 AND organization_id = $2 RETURNING id', [
      id,
      organizationId,
    ]);
    return rows.length > 0;
  }

  async search(s: BankAccountSearch): Promise<{ total: number; rows: BankAccountRow[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (s.organizationId) where.push(`organization_id = $${params.push(s.organizationId)}`);
    if (s.statuses?.length) where.push(`status = ANY($${params.push(s.statuses)}::text[])`);
    if (s.userIds?.length) where.push(`created_by = ANY($${params.push(s.userIds)}::uuid[])`);
    for (const part of s.ibanParts) where.push(`iban LIKE $${params.push(containing(part))}`);
    for (const part of s.bicParts) where.push(`bic LIKE $${params.push(containing(part))}`);
    if (s.bankName) where.push(`bank_name ILIKE $${params.push(containing(s.bankName))}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bank_accounts ${clause}`, params);
    // Ties (and accounts without a bank's name, last) keep the newest first.
    const order = s.sort === 'created_at' ? '' : `${s.sort === 'bank_name' ? 'lower(bank_name)' : 'status'} ${s.direction} NULLS LAST, `;
    const newest = s.sort === 'created_at' ? s.direction : 'DESC';
    const rows = await this.db.query<BankAccountRow>(
      `SELECT ${COLUMNS} FROM bank_accounts ${clause} ORDER BY ${order}created_at ${newest}, id ${newest}
        LIMIT $${params.push(s.limit)} OFFSET $${params.push(s.offset)}`,
      params,
    );
    return { total: n, rows };
  }
}
