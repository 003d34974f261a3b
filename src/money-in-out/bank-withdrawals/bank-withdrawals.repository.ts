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

/** A coin on one side of a withdrawal's transaction, with its owner and its issuer (the columns of COIN_SIDE). */
export interface TransactionCoinRow {
  serial: string;
  name: string;
  type: 'client' | 'system';
  organizationId: string;
  organizationName: string;
  issuerId: string;
  issuerSn: string;
  code: string;
  symbol: string | null;
  fraction: string;
}

/**
 * One of the transactions of a withdrawal's operation: its hold (`hold`, what the request reserved on the coin, to the
 * coin it is meant for) or one of its ledger legs, the amount paid out (`redeem`, the family's leg type, as the kernel's legs say) or a fee (`commission`).
 */
export interface BankWithdrawalTransactionRow {
  operation_id: string;
  type: 'hold' | 'redeem' | 'commission';
  /** The hold's id, or the leg's debit entry's. */
  id: string;
  /** Positive: it leaves `from_coin` (or is reserved on it) for `to_coin`. */
  amount: string;
  from_coin: TransactionCoinRow;
  to_coin: TransactionCoinRow;
  /** The date the ledger gives the hold or the entry: its operation's creation. */
  created_at: Date;
  /** When it happened: the hold placed; a leg posted (when the hold was captured, for a request). */
  performed_at: Date;
  /** When it last changed: a hold's capture or release; a leg never changes. */
  updated_at: Date;
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

/** A coin, its organization, issuer and currency as JSON (TransactionCoinRow), by a serial expression. */
const coinSide = (serial: string) =>
  `(SELECT json_build_object('serial', k.serial::text, 'name', k.name, 'type', k.type, 'organizationId', k.organization_id,
                             'organizationName', g.name, 'issuerId', ki.id, 'issuerSn', ki.sn::text, 'code', kc.code, 'symbol', kc.symbol,
                             'fraction', kc.fraction::text)
      FROM coins k JOIN organizations g ON g.id = k.organization_id JOIN issuers ki ON ki.id = k.issuer_id
      JOIN currencies kc ON kc.id = k.currency_id WHERE k.serial = ${serial})`;

/**
 * The transactions of the withdrawals' operations: a request's hold first, then the legs in order. A hold is found by
 * its organization, date and operation (holds_organization_idx: a hold is dated with its operation and belongs to the
 * coin's organization, the withdrawal's), the legs by their operation (ledger_entries_pkey), each leg's debit beside
 * its credit. A leg to the operation's payee is the payout, any other a fee; a leg of a request is posted when its
 * hold is captured.
 */
const TRANSACTIONS = `
  WITH w AS (
    SELECT o.id, o.created_at, o.to_coin, r.organization_id
      FROM bank_withdrawals r JOIN operations o ON o.id = r.operation_id
     WHERE r.id = ANY($1::uuid[])
  ), held AS (
    SELECT h.operation_id, h.id::text AS id, h.amount, h.coin_serial AS from_coin, w.to_coin, h.created_at, h.status, h.closed_at
      FROM w JOIN holds h ON h.organization_id = w.organization_id AND h.created_at = w.created_at AND h.operation_id = w.id
  ), moved AS (
    SELECT 'hold' AS type, held.operation_id, held.id, held.amount, held.from_coin, held.to_coin, held.created_at,
           held.created_at AS performed_at, COALESCE(held.closed_at, held.created_at) AS updated_at, -1 AS leg
      FROM held
    UNION ALL
    SELECT CASE WHEN c.coin_serial = w.to_coin THEN 'redeem' ELSE 'commission' END, w.id, d.id::text, c.amount, d.coin_serial,
           c.coin_serial, d.created_at, COALESCE(captured.closed_at, d.created_at), COALESCE(captured.closed_at, d.created_at), d.leg
      FROM w JOIN ledger_entries d ON d.operation_id = w.id AND d.amount < 0
      JOIN ledger_entries c ON c.operation_id = d.operation_id AND c.leg = d.leg AND c.amount > 0
      LEFT JOIN held captured ON captured.operation_id = w.id AND captured.status = 'captured'
  )
  SELECT m.operation_id, m.type, m.id, m.amount::text AS amount, ${coinSide('m.from_coin')} AS from_coin, ${coinSide('m.to_coin')} AS to_coin,
         m.created_at, m.performed_at, m.updated_at
    FROM moved m ORDER BY m.operation_id, m.leg, m.id`;

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

  /** The transactions of these withdrawals' operations (BankWithdrawalTransactionRow), in order within each operation. */
  transactionsOf(ids: string[]): Promise<BankWithdrawalTransactionRow[]> {
    return ids.length ? this.db.query<BankWithdrawalTransactionRow>(TRANSACTIONS, [ids]) : Promise.resolve([]);
  }

  search(search: RequestSearch): Promise<{ total: number; rows: BankWithdrawalRow[] }> {
    return searchRequests(this.db, TABLE, search);
  }
}
