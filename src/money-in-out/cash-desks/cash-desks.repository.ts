import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import {
  requestById,
  RequestRow,
  RequestSearch,
  RequestTable,
  RequestVisibility,
  searchRequests,
} from '../../platform/database/request-search';

export interface CashDeskOperationRow extends RequestRow {
  cash_desk_id: string;
  type: 'cash_in' | 'cash_out';
  status: 'pending' | 'processed' | 'declined';
  decision: 'confirmed' | 'completed' | 'declined' | null;
  cash_out_code_id: string | null;
  customer_organization_id: string;
  desk_coin_serial: string;
  commission: string;
  full_name: string;
  document_type: string;
  document_number: string;
}

export interface NewCashDeskOperation {
  cashDeskId: string;
  type: 'cash_in' | 'cash_out';
  operationId: string;
  coinSerial: string;
  customerOrganizationId: string;
  deskCoinSerial: string;
  amount: string;
  commission: string;
  fullName: string;
  documentType: string;
  documentNumber: string;
  description: string | null;
  customInformation: string | null;
  createdBy: string;
}

const SELECT = `SELECT r.id, r.cash_desk_id, r.type, r.status, r.decision, r.cash_out_code_id, r.operation_id, r.coin_serial::text AS coin_serial,
       r.customer_organization_id, r.desk_coin_serial::text AS desk_coin_serial, r.amount::text AS amount, r.commission::text AS commission,
       cu.code, cu.fraction::text AS fraction, r.full_name, r.document_type, r.document_number, r.description, r.custom_information,
       r.decline_reason, r.created_by, r.decided_by, r.decided_at, r.created_at, r.updated_at
  FROM cash_desk_operations r JOIN currencies cu ON cu.id = r.currency_id`;

const TABLE: RequestTable = {
  name: 'cash_desk_operations',
  select: SELECT,
  orgColumns: ['cash_desk_id', 'customer_organization_id'],
  textColumns: ['full_name', 'document_number', 'description', 'custom_information'],
};

/** cash_desk_operations: what a cashier entered for a customer, linking its pending `cash_in` or `cash_out` operation. */
@Injectable()
export class CashDesksRepository {
  constructor(private readonly db: Database) {}

  /** The desks holding a usable cash coin of the issuer: those that can pay out or take in that issuer's coins. */
  async desksServing(issuerId: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT DISTINCT o.id FROM organizations o JOIN coins c ON c.organization_id = o.id
        WHERE o.type = 'cash_desk' AND c.issuer_id = $1 AND c.type = 'client' AND c.active AND c.closed_at IS NULL`,
      [issuerId],
    );
    return rows.map((r) => r.id);
  }

  async insert(o: NewCashDeskOperation): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO cash_desk_operations (cash_desk_id, type, operation_id, coin_serial, customer_organization_id, desk_coin_serial, currency_id,
                                         amount, commission, full_name, document_type, document_number, description, custom_information, created_by)
       SELECT $1, $2, $3, $4, $5, $6, c.currency_id, $7, $8, $9, $10, $11, $12, $13, $14 FROM coins c WHERE c.serial = $4 RETURNING id`,
      [
        o.cashDeskId,
        o.type,
        o.operationId,
        o.coinSerial,
        o.customerOrganizationId,
        o.deskCoinSerial,
        o.amount,
        o.commission,
        o.fullName,
        o.documentType,
        o.documentNumber,
        o.description,
        o.customInformation,
        o.createdBy,
      ],
    );
    return row.id;
  }

  /** The operation, if visible through `visibleTo` (its desk's or its customer's column); `lock` takes it FOR UPDATE. */
  get(id: string, visibleTo?: RequestVisibility, lock = false): Promise<CashDeskOperationRow | undefined> {
    return requestById(this.db, TABLE, id, visibleTo, lock);
  }

  /** Links the customer's cash-out code the desk presented. */
  async authorize(id: string, cashOutCodeId: string): Promise<void> {
    await this.db.query(`UPDATE cash_desk_operations SET cash_out_code_id = $2, updated_at = now() WHERE id = $1`, [id, cashOutCodeId]);
  }

  async decide(id: string, decision: { decision: 'confirmed' | 'completed' | 'declined'; reason?: string; by: string }): Promise<void> {
    await this.db.query(
      `UPDATE cash_desk_operations SET status = CASE WHEN $2 = 'declined' THEN 'declined' ELSE 'processed' END, decision = $2,
              decline_reason = $3, decided_by = $4, decided_at = now(), updated_at = now()
        WHERE id = $1`,
      [id, decision.decision, decision.reason ?? null, decision.by],
    );
  }

  search(search: RequestSearch): Promise<{ total: number; rows: CashDeskOperationRow[] }> {
    return searchRequests(this.db, TABLE, search);
  }
}
