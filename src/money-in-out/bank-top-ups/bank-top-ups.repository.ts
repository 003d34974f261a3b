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

/** A request's operation is the top-up its acceptance posts: none before. */
export interface BankTopUpRequestRow extends RequestRow<string | null>, ClientCoinRow {
  request_identifier: string;
  /** The catalog's bank, when the request names one. */
  bank_name: string | null;
  bank_bic: string | null;
  bank_swift: string | null;
  bank_country: string | null;
  bank_city: string | null;
  bank_address: string | null;
  bank_zip_code: string | null;
  status: 'new' | 'processed' | 'declined';
  organization_id: string;
  bank_account_number: string | null;
  iban: string | null;
  bank_id: string | null;
  full_name: string | null;
}

export interface NewBankTopUpRequest {
  coinSerial: string;
  organizationId: string;
  currencyId: string;
  amount: string;
  bankAccountNumber: string | null;
  iban: string | null;
  bankId: string | null;
  fullName: string | null;
  description: string | null;
  customInformation: string | null;
  createdBy: string;
}

const SELECT = `SELECT r.id, r.request_identifier::text AS request_identifier, r.status, r.coin_serial::text AS coin_serial, r.organization_id, r.amount::text AS amount, cu.code,
       cu.fraction::text AS fraction, r.bank_account_number, r.iban, r.bank_id, r.full_name, r.description, r.custom_information,
       r.decline_reason, r.operation_id, r.created_by, r.decided_by, r.decided_at, r.created_at, r.updated_at,
       ${CLIENT_COIN_COLUMNS}, b.name AS bank_name, b.bic AS bank_bic, b.swift_code AS bank_swift, b.country AS bank_country,
       b.city AS bank_city, b.address AS bank_address, b.zip_code AS bank_zip_code
  FROM bank_top_up_requests r JOIN currencies cu ON cu.id = r.currency_id ${CLIENT_COIN_JOINS}
  LEFT JOIN bank_catalog b ON b.id = r.bank_id`;

const TABLE: RequestTable = {
  name: 'bank_top_up_requests',
  select: SELECT,
  orgColumns: ['organization_id'],
  textColumns: ['full_name', 'iban', 'bank_account_number', 'description', 'custom_information'],
};

/** bank_top_up_requests: requests for bank top-ups, `new` until staff accept (posting the top-up) or decline them. */
@Injectable()
export class BankTopUpsRepository {
  constructor(private readonly db: Database) {}

  async insert(r: NewBankTopUpRequest): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO bank_top_up_requests (coin_serial, organization_id, currency_id, amount, bank_account_number, iban, bank_id, full_name,
                                         description, custom_information, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        r.coinSerial,
        r.organizationId,
        r.currencyId,
        r.amount,
        r.bankAccountNumber,
        r.iban,
        r.bankId,
        r.fullName,
        r.description,
        r.customInformation,
        r.createdBy,
      ],
    );
    return row.id;
  }

  /** The request, if `visibleTo` (when given) sees it; `lock` takes it FOR UPDATE, so racing decisions queue. */
  get(id: string, visibleTo?: RequestVisibility, lock = false): Promise<BankTopUpRequestRow | undefined> {
    return requestById(this.db, TABLE, id, visibleTo, lock);
  }

  /** The id of the request with this requestIdentifier, if any. */
  async idOf(requestIdentifier: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(`SELECT id FROM bank_top_up_requests WHERE request_identifier = $1`, [
      requestIdentifier,
    ]);
    return row?.id;
  }

  async decide(
    id: string,
    decision: { status: 'processed' | 'declined'; operationId?: string; reason?: string; by: string },
  ): Promise<void> {
    await this.db.query(
      `UPDATE bank_top_up_requests SET status = $2, operation_id = $3, decline_reason = $4, decided_by = $5, decided_at = now(), updated_at = now()
        WHERE id = $1`,
      [id, decision.status, decision.operationId ?? null, decision.reason ?? null, decision.by],
    );
  }

  search(search: RequestSearch): Promise<{ total: number; rows: BankTopUpRequestRow[] }> {
    return searchRequests(this.db, TABLE, search);
  }
}
