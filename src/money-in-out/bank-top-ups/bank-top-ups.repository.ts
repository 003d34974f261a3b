import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import { RequestSearch, requestWhere } from '../../platform/database/request-search';

export interface BankTopUpRequestRow {
  id: string;
  status: 'new' | 'processed' | 'declined';
  coin_serial: string;
  organization_id: string;
  amount: string;
  code: string;
  fraction: string;
  bank_account_number: string | null;
  iban: string | null;
  bank_id: string | null;
  full_name: string | null;
  description: string | null;
  custom_information: string | null;
  decline_reason: string | null;
  operation_id: string | null;
  created_by: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
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

const SELECT = `SELECT r.id, r.status, r.coin_serial::text AS coin_serial, r.organization_id, r.amount::text AS amount, cu.code,
       cu.fraction::text AS fraction, r.bank_account_number, r.iban, r.bank_id, r.full_name, r.description, r.custom_information,
       r.decline_reason, r.operation_id, r.created_by, r.decided_by, r.decided_at, r.created_at, r.updated_at
  FROM bank_top_up_requests r JOIN currencies cu ON cu.id = r.currency_id`;

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

  /** The request, if `organizationId` (when given) owns it; `lock` takes it FOR UPDATE, so racing decisions queue. */
  async get(id: string, organizationId?: string, lock = false): Promise<BankTopUpRequestRow | undefined> {
    const params: unknown[] = [id];
    const own = organizationId === undefined ? '' : ` AND r.organization_id = $${params.push(organizationId)}`;
    const [row] = await this.db.query<BankTopUpRequestRow>(`${SELECT} WHERE r.id = $1${own}${lock ? ' FOR UPDATE OF r' : ''}`, params);
    return row;
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

  async search(search: RequestSearch): Promise<{ total: number; rows: BankTopUpRequestRow[] }> {
    const { where, params } = requestWhere(
      search,
      ['organization_id'],
      ['full_name', 'iban', 'bank_account_number', 'description', 'custom_information'],
    );
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bank_top_up_requests r ${where}`, params);
    const rows = await this.db.query<BankTopUpRequestRow>(
      `${SELECT} ${where} ORDER BY r.created_at ${search.direction}, r.id ${search.direction} LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { total: n, rows };
  }
}
