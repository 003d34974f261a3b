import { Injectable } from '@nestjs/common';
import { arrayLiteral, Database } from '../../platform/database/database';
import type { RecordWriter } from '../../platform/ledger/ledger.types';

/** A payer's coin as a payment needs it: its kind, owner and currency. */
export interface PayerCoin {
  type: 'client' | 'system';
  organization_id: string;
  currency_id: string;
  code: string;
  fraction: string;
}

/** A payment to write with its operation (MerchantPaymentsRepository.records). */
export interface PaymentRecord {
  id: string;
  merchantId: string;
  posId: string | null;
  payerOrganizationId: string | null;
  method: PaymentRow['method'];
  amount: string;
  currencyId: string;
  description: string | null;
  createdBy: string;
  purchases: { productId: string | null; name: string; quantity: number; price: string; total: string }[];
  /** Its purchases' ids, in order, once written. */
  purchaseIds?: string[];
}

export interface PaymentRow {
  id: string;
  merchant_id: string;
  pos_id: string | null;
  payer_organization_id: string | null;
  method: 'coin' | 'smart_card' | 'voucher';
  amount: string;
  currency: string;
  fraction: string;
  description: string | null;
  operation_id: string;
  created_at: Date;
}

export interface PurchaseRow {
  id: string;
  product_id: string | null;
  name: string;
  quantity: number;
  price: string;
  total: string;
  fraction: string;
}

export interface PricedProduct {
  id: string;
  name: string;
  price: string | null;
}

const PAYMENT = `p.id, p.merchant_id, p.pos_id, p.payer_organization_id, p.method, p.amount::text AS amount, c.code AS currency,
  c.fraction::text AS fraction, p.description, p.operation_id, p.created_at`;

/** Merchant payments and their purchases, and the coins and prices a payment needs. */
@Injectable()
export class MerchantPaymentsRepository {
  constructor(private readonly db: Database) {}

  /** The merchant organization, if it is one. */
  async isMerchant(id: string): Promise<boolean> {
    const [{ found }] = await this.db.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM organizations WHERE id = $1 AND type = 'merchant') AS found`,
      [id],
    );
    return found;
  }

  /** The merchant's main open coin in a currency: where its payments go. */
  async merchantCoin(merchantId: string, currencyId: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ serial: string }>(
      `SELECT serial::text AS serial FROM coins WHERE organization_id = $1 AND currency_id = $2 AND main AND type = 'client' AND closed_at IS NULL`,
      [merchantId, currencyId],
    );
    return row?.serial;
  }

  /**
   * One statement for a payment with a coin: whether `merchantId` is a merchant, the payer's coin (its kind, owner and
   * currency; undefined when there is none) and the merchant's main open coin in that currency.
   */
  async parties(merchantId: string, payerSerial: string): Promise<{ isMerchant: boolean; payer?: PayerCoin; merchantCoin?: string }> {
    const [row] = await this.db.query<PayerCoin & { is_merchant: boolean; serial: string | null; merchant_coin: string | null }>(
      `SELECT EXISTS (SELECT 1 FROM organizations WHERE id = $1 AND type = 'merchant') AS is_merchant,
              c.serial::text AS serial, c.type, c.organization_id, c.currency_id, cu.code, cu.fraction::text AS fraction,
              (SELECT m.serial::text FROM coins m WHERE m.organization_id = $1 AND m.currency_id = c.currency_id AND m.main
                  AND m.type = 'client' AND m.closed_at IS NULL) AS merchant_coin
         FROM (SELECT 1) AS one LEFT JOIN coins c ON c.serial = $2::bigint LEFT JOIN currencies cu ON cu.id = c.currency_id`,
      [merchantId, payerSerial],
      { prepare: true },
    );
    const { is_merchant, serial, merchant_coin, ...payer } = row;
    return { isMerchant: is_merchant, payer: serial ? payer : undefined, merchantCoin: merchant_coin ?? undefined };
  }

  /** The merchant's active products among `ids`, with their price in the currency (null: none). */
  async pricedProducts(merchantId: string, ids: string[], currencyId: string): Promise<PricedProduct[]> {
    return this.db.query<PricedProduct>(
      `SELECT m.id::text AS id, m.name, p.price::text AS price
         FROM merchant_products m LEFT JOIN merchant_product_prices p ON p.product_id = m.id AND p.currency_id = $3
        WHERE m.organization_id = $1 AND m.id = ANY($2::bigint[]) AND m.active AND m.deleted_at IS NULL`,
      [merchantId, ids, currencyId],
    );
  }

  /**
   * Writes payments with their purchases, each with its operation, in one statement (a RecordWriter: the ledger calls it
   * in the posting's transaction, once for a whole group). Completes each row with its purchases' ids.
   */
  readonly records: RecordWriter<PaymentRecord> = {
    write: async (rows) => {
      const purchases = rows.flatMap(({ row }) => row.purchases.map((p) => ({ ...p, paymentId: row.id })));
      const ids = await this.db.query<{ id: string; payment_id: string }>(
        `WITH payment AS (
           INSERT INTO merchant_payments (id, merchant_id, pos_id, payer_organization_id, method, amount, currency_id, description, operation_id, created_by)
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::numeric[], $7::uuid[], $8::text[], $9::uuid[], $10::uuid[])
           RETURNING id
         )
         INSERT INTO merchant_purchases (payment_id, product_id, name, quantity, price, total)
         SELECT p.payment_id, p.product_id, p.name, p.quantity, p.price, p.total
           FROM unnest($11::uuid[], $12::bigint[], $13::text[], $14::int[], $15::numeric[], $16::numeric[]) WITH ORDINALITY
                AS p(payment_id, product_id, name, quantity, price, total, n)
          ORDER BY p.n
         RETURNING id::text AS id, payment_id`,
        // Uuids, the method's word, numbers and decimal text as array literals (arrayLiteral: no escaping of each
        // element); the free text (descriptions, names) as arrays pg escapes.
        [
          arrayLiteral(rows.map(({ row }) => row.id)),
          arrayLiteral(rows.map(({ row }) => row.merchantId)),
          arrayLiteral(rows.map(({ row }) => row.posId)),
          arrayLiteral(rows.map(({ row }) => row.payerOrganizationId)),
          arrayLiteral(rows.map(({ row }) => row.method)),
          arrayLiteral(rows.map(({ row }) => row.amount)),
          arrayLiteral(rows.map(({ row }) => row.currencyId)),
          rows.map(({ row }) => row.description),
          arrayLiteral(rows.map(({ operationId }) => operationId)),
          arrayLiteral(rows.map(({ row }) => row.createdBy)),
          arrayLiteral(purchases.map((p) => p.paymentId)),
          arrayLiteral(purchases.map((p) => p.productId)),
          purchases.map((p) => p.name),
          arrayLiteral(purchases.map((p) => p.quantity)),
          arrayLiteral(purchases.map((p) => p.price)),
          arrayLiteral(purchases.map((p) => p.total)),
        ],
        { prepare: true },
      );
      // Serial ids follow the insert's order: each payment's purchases take theirs in its order.
      const sorted = ids.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      for (const { row } of rows) row.purchaseIds = sorted.filter((i) => i.payment_id === row.id).map((i) => i.id);
    },
  };

  async get(id: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db.query<PaymentRow>(
      `SELECT ${PAYMENT} FROM merchant_payments p JOIN currencies c ON c.id = p.currency_id WHERE p.id = $1`,
      [id],
    );
    return row;
  }

  async purchases(paymentId: string): Promise<PurchaseRow[]> {
    return this.db.query<PurchaseRow>(
      `SELECT u.id::text AS id, u.product_id::text AS product_id, u.name, u.quantity, u.price::text AS price, u.total::text AS total,
              c.fraction::text AS fraction
         FROM merchant_purchases u JOIN merchant_payments p ON p.id = u.payment_id JOIN currencies c ON c.id = p.currency_id
        WHERE u.payment_id = $1 ORDER BY u.id`,
      [paymentId],
    );
  }

  /** Payments the organization took (as merchant) or made (as payer), newest first; every one when undefined. */
  async page(organizationId: string | undefined, offset: number, limit: number): Promise<{ total: number; rows: PaymentRow[] }> {
    const params: unknown[] = [];
    const where = organizationId ? `WHERE p.merchant_id = $${params.push(organizationId)} OR p.payer_organization_id = $1` : '';
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM merchant_payments p ${where}`, params);
    const rows = await this.db.query<PaymentRow>(
      `SELECT ${PAYMENT} FROM merchant_payments p JOIN currencies c ON c.id = p.currency_id ${where}
        ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: n, rows };
  }

  /** The operations of the payments taken at a point of sale, newest first, at most `limit`. */
  async operationsAt(posId: string, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ operation_id: string }>(
      `SELECT operation_id FROM merchant_payments WHERE pos_id = $1 ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
      [posId],
    );
    return rows.map((r) => r.operation_id);
  }
}
