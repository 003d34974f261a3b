import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import { containing } from '../../platform/database/search-sql';

export interface ProductRow {
  id: string;
  organization_id: string;
  name: string;
  category: string | null;
  description: string | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface PriceRow {
  id: string;
  product_id: string;
  currency_id: string;
  currency: string;
  fraction: string;
  price: string;
  created_at: Date;
}

const PRODUCT = 'id::text AS id, organization_id, name, category, description, active, created_at, updated_at';
const PRICE = `p.id::text AS id, p.product_id::text AS product_id, p.currency_id, c.code AS currency, c.fraction::text AS fraction,
  p.price::text AS price, p.created_at`;

/** Merchants' products (numeric ids) and their prices, one per currency. */
@Injectable()
export class MerchantProductsRepository {
  constructor(private readonly db: Database) {}

  async insert(values: {
    organizationId: string;
    name: string;
    category: string | null;
    description: string | null;
    active: boolean;
  }): Promise<ProductRow> {
    const [row] = await this.db.query<ProductRow>(
      `INSERT INTO merchant_products (organization_id, name, category, description, active) VALUES ($1, $2, $3, $4, $5) RETURNING ${PRODUCT}`,
      [values.organizationId, values.name, values.category, values.description, values.active],
    );
    return row;
  }

  /** A product not deleted; of `organizationId` when given. */
  async get(id: string, organizationId?: string): Promise<ProductRow | undefined> {
    const params: unknown[] = [id];
    const own = organizationId ? ` AND organization_id = $${params.push(organizationId)}` : '';
    const [row] = await this.db.query<ProductRow>(
      `SELECT ${PRODUCT} FROM merchant_products WHERE id = $1 AND deleted_at IS NULL${own}`,
      params,
    );
    return row;
  }

  async page(
    organizationId: string,
    filter: { category?: string; name?: string; active?: boolean },
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: ProductRow[] }> {
    const where = ['organization_id = $1', 'deleted_at IS NULL'];
    const params: unknown[] = [organizationId];
    if (filter.category) where.push(`category = $${params.push(filter.category)}`);
    if (filter.name) where.push(`name ILIKE $${params.push(containing(filter.name))}`);
    if (filter.active !== undefined) where.push(`active = $${params.push(filter.active)}`);
    const clause = where.join(' AND ');
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM merchant_products WHERE ${clause}`, params);
    const rows = await this.db.query<ProductRow>(
      `SELECT ${PRODUCT} FROM merchant_products WHERE ${clause} ORDER BY name, id LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: n, rows };
  }

  async categories(organizationId: string): Promise<string[]> {
    const rows = await this.db.query<{ category: string }>(
      `SELECT DISTINCT category FROM merchant_products WHERE organization_id = $1 AND deleted_at IS NULL AND category IS NOT NULL ORDER BY category`,
      [organizationId],
    );
    return rows.map((r) => r.category);
  }

  async update(
    id: string,
    organizationId: string,
    fields: { name?: string; category?: string | null; description?: string | null; active?: boolean },
  ): Promise<ProductRow | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [id, organizationId];
    if (fields.name !== undefined) sets.push(`name = $${params.push(fields.name)}`);
    if (fields.category !== undefined) sets.push(`category = $${params.push(fields.category)}`);
    if (fields.description !== undefined) sets.push(`description = $${params.push(fields.description)}`);
    if (fields.active !== undefined) sets.push(`active = $${params.push(fields.active)}`);
    const [row] = await this.db.query<ProductRow>(
      `UPDATE merchant_products SET ${[...sets, 'updated_at = now()'].join(', ')}
        WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL RETURNING ${PRODUCT}`,
      params,
    );
    return row;
  }

  async delete(id: string, organizationId: string): Promise<ProductRow | undefined> {
    const [row] = await this.db.query<ProductRow>(
      `UPDATE merchant_products SET deleted_at = now(), active = false WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL RETURNING ${PRODUCT}`,
      [id, organizationId],
    );
    return row;
  }

  async currency(code: string): Promise<{ id: string; fraction: string } | undefined> {
    const [row] = await this.db.query<{ id: string; fraction: string }>(
      `SELECT id, fraction::text AS fraction FROM currencies WHERE code = $1`,
      [code],
    );
    return row;
  }

  async insertPrice(productId: string, currencyId: string, price: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO merchant_product_prices (product_id, currency_id, price) VALUES ($1, $2, $3)
       ON CONFLICT (product_id, currency_id) DO NOTHING RETURNING id::text AS id`,
      [productId, currencyId, price],
    );
    return row?.id;
  }

  async prices(productIds: string[]): Promise<PriceRow[]> {
    return this.db.query<PriceRow>(
      `SELECT ${PRICE} FROM merchant_product_prices p JOIN currencies c ON c.id = p.currency_id WHERE p.product_id = ANY($1::bigint[]) ORDER BY c.code, p.id`,
      [productIds],
    );
  }

  async price(productId: string, id: string): Promise<PriceRow | undefined> {
    const [row] = await this.db.query<PriceRow>(
      `SELECT ${PRICE} FROM merchant_product_prices p JOIN currencies c ON c.id = p.currency_id WHERE p.product_id = $1 AND p.id = $2`,
      [productId, id],
    );
    return row;
  }

  async deletePrice(productId: string, id: string): Promise<boolean> {
    const rows = await this.db.query(`DELETE FROM merchant_product_prices WHERE product_id = $1 AND id = $2 RETURNING id`, [productId, id]);
    return rows.length > 0;
  }
}
