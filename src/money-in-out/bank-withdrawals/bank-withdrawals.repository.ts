import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import {
  CLIENT_COIN_COLUMNS,
  CLIENT_COIN_JOINS,
  ClientCoinRow,
  requestById,
  RequestRow,
  RequestSearch,
  RequestTable,
  RequestVisibility,
  searchRequests,
} from '../../platform/database/request-search';

export interface BankWithdrawalRow extends RequestRow, ClientCoinRow {
  request_identifier: string;
  kind: 'direct' | 'request';
  status: 'pending' | 'processed' | 'declined';
  organization_id: string;
  commission: string;
  bank_account_id: string | null;
  iban: string;
  bic: string | null;
  account_holder: string;
  bank_name: string | null;
}

export interface NewBankWithdrawal {
  kind: 'direct' | 'request';
  status: 'pending' | 'processed';
  operationId: string;
  coinSerial: string;
  organizationId: string;
  currencyId: string;
  amount: string;
  commission: string;
  bankAccountId: string | null;
  iban: string;
  bic: string | null;
  accountHolder: string;
  bankName: string | null;
  description: string | null;
  customInformation: string | null;
  createdBy: string;
}

const SELECT = `SELECT r.id, r.request_identifier::text AS request_identifier, r.kind, r.status, r.operation_id, r.coin_serial::text AS coin_serial, r.organization_id, r.amount::text AS amount,
       r.commission::text AS commission, cu.code, cu.fraction::text AS fraction, r.bank_account_id, r.iban, r.bic, r.account_holder,
       r.bank_name, r.description, r.custom_information, r.decline_reason, r.created_by, r.decided_by, r.decided_at, r.created_at, r.updated_at,
       ${CLIENT_COIN_COLUMNS}
  FROM bank_withdrawals r JOIN currencies cu ON cu.id = r.currency_id ${CLIENT_COIN_JOINS}`;

const TABLE: RequestTable = {
  name: 'bank_withdrawals',
  select: SELECT,
  orgColumns: ['organization_id'],
  textColumns: ['iban', 'account_holder', 'bank_name', 'description', 'custom_information'],
};

/** bank_withdrawals: each payout to a bank, with a copy of where it goes; a request's row links its pending operation. */
@Injectable()
export class BankWithdrawalsRepository {
  constructor(private readonly db: Database) {}

  async insert(w: NewBankWithdrawal): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO bank_withdrawals (kind, status, operation_id, coin_serial, organization_id, currency_id, amount, commission, bank_account_id,
                                     iban, bic, account_holder, bank_name, description, custom_information, created_by)
       SELECT $1, $2, $3, $4, $5, c.currency_id, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15 FROM coins c WHERE c.serial = $4 RETURNING id`,
      [
        w.kind,
        w.status,
        w.operationId,
        w.coinSerial,
        w.organizationId,
        w.amount,
        w.commission,
        w.bankAccountId,
        w.iban,
        w.bic,
        w.accountHolder,
        w.bankName,
        w.description,
        w.customInformation,
        w.createdBy,
      ],
    );
    return row.id;
  }

  /** The withdrawal, if `visibleTo` (when given) sees it; `lock` takes it FOR UPDATE, so racing decisions queue. */
  get(id: string, visibleTo?: RequestVisibility, lock = false): Promise<BankWithdrawalRow | undefined> {
    return requestById(this.db, TABLE, id, visibleTo, lock);
  }

  /** The id of the withdrawal with this requestIdentifier, if any. */
  async idOf(requestIdentifier: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(`SELECT id FROM bank_withdrawals WHERE request_identifier = $1`, [requestIdentifier]);
    return row?.id;
  }

  async decide(id: string, decision: { status: 'processed' | 'declined'; reason?: string; by: string }): Promise<void> {
    await this.db.query(
      `UPDATE bank_withdrawals SET status = $2, decline_reason = $3, decided_by = $4, decided_at = now(), updated_at = now() WHERE id = $1`,
      [id, decision.status, decision.reason ?? null, decision.by],
    );
  }

  search(search: RequestSearch): Promise<{ total: number; rows: BankWithdrawalRow[] }> {
    return searchRequests(this.db, TABLE, search);
  }
}
