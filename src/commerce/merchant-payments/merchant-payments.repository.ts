import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

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

  /** The merchant's active products among `ids`, with their price in the currency (null: none). */
  async pricedProducts(merchantId: string, ids: string[], currencyId: string): Promise<PricedProduct[]> {
    return this.db.query<PricedProduct>(
      `SELECT m.id::text AS id, m.name, p.price::text AS price
         FROM merchant_products m LEFT JOIN merchant_product_prices p ON p.product_id = m.id AND p.currency_id = $3
        WHERE m.organization_id = $1 AND m.id = ANY($2::bigint[]) AND m.active AND m.deleted_at IS NULL`,
      [merchantId, ids, currencyId],
    );
  }

  async insert(values: {
    merchantId: string;
    posId: string | null;
    payerOrganizationId: string | null;
    method: string;
    amount: string;
    currencyId: string;
    description: string | null;
    operationId: string;
    createdBy: string;
    purchases: { productId: string | null; name: string; quantity: number; price: string; total: string }[];
  }): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `WITH payment AS (
         INSERT INTO merchant_payments (merchant_id, pos_id, payer_organization_id, method, amount, currency_id, description, operation_id, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id
       ), purchases AS (
         INSERT INTO merchant_purchases (payment_id, product_id, name, quantity, price, total)
         SELECT payment.id, p.product_id, p.name, p.quantity, p.price, p.total
           FROM payment, unnest($10::bigint[], $11::text[], $12::int[], $13::numeric[], $14::numeric[]) AS p(product_id, name, quantity, price, total)
       )
       SELECT id FROM payment`,
      [
        values.merchantId,
        values.posId,
        values.payerOrganizationId,
        values.method,
        values.amount,
        values.currencyId,
        values.description,
        values.operationId,
        values.createdBy,
        values.purchases.map((p) => p.productId),
        values.purchases.map((p) => p.name),
        values.purchases.map((p) => p.quantity),
        values.purchases.map((p) => p.price),
        values.purchases.map((p) => p.total),
      ],
    );
    return row.id;
  }

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
