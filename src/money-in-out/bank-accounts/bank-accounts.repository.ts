import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface BankAccountRow {
  id: string;
  organization_id: string;
  name: string | null;
  iban: string;
  bic: string | null;
  account_holder: string;
  bank_name: string | null;
  bank_id: string | null;
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

const COLUMNS = 'id, organization_id, name, iban, bic, account_holder, bank_name, bank_id, created_at, updated_at';

/** bank_accounts: each organization's accounts for withdrawals; always read within the owner's organization. */
@Injectable()
export class BankAccountsRepository {
  constructor(private readonly db: Database) {}

  /** Inserts the account; undefined when the organization already has one with this IBAN. */
  async insert(organizationId: string, v: BankAccountValues): Promise<BankAccountRow | undefined> {
    const [row] = await this.db.query<BankAccountRow>(
      `INSERT INTO bank_accounts (organization_id, name, iban, bic, account_holder, bank_name, bank_id) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (organization_id, iban) DO NOTHING RETURNING ${COLUMNS}`,
      [organizationId, v.name, v.iban, v.bic, v.accountHolder, v.bankName, v.bankId],
    );
    return row;
  }

  async get(organizationId: string, id: string): Promise<BankAccountRow | undefined> {
    const [row] = await this.db.query<BankAccountRow>(`SELECT ${COLUMNS} FROM bank_accounts WHERE id = $1 AND organization_id = $2`, [
      id,
      organizationId,
    ]);
    return row;
  }

  /** Changes the account; undefined when it is not the organization's or another of its accounts has the new IBAN. */
  async update(organizationId: string, id: string, v: BankAccountValues): Promise<BankAccountRow | undefined> {
    const [row] = await this.db.query<BankAccountRow>(
      `UPDATE bank_accounts SET name = $3, iban = $4, bic = $5, account_holder = $6, bank_name = $7, bank_id = $8, updated_at = now()
        WHERE id = $1 AND organization_id = $2
          AND NOT EXISTS (SELECT 1 FROM bank_accounts other WHERE other.organization_id = $2 AND other.iban = $4 AND other.id <> $1)
        RETURNING ${COLUMNS}`,
      [id, organizationId, v.name, v.iban, v.bic, v.accountHolder, v.bankName, v.bankId],
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

  async page(organizationId: string, offset: number, limit: number): Promise<{ total: number; rows: BankAccountRow[] }> {
    const [{ n }] = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bank_accounts WHERE organization_id = $1', [
      organizationId,
    ]);
    const rows = await this.db.query<BankAccountRow>(
      `SELECT ${COLUMNS} FROM bank_accounts WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [organizationId, limit, offset],
    );
    return { total: n, rows };
  }
}
