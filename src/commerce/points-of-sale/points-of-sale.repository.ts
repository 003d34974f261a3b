import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface PosRow {
  id: string;
  organization_id: string;
  name: string;
  address: string | null;
  description: string | null;
  website: string | null;
  server_url: string | null;
  result_url: string | null;
  category_id: string | null;
  /** The category's name. */
  category_name: string | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The fields a point of sale's requests set, by column. */
export interface PosFields {
  name?: string;
  address?: string | null;
  description?: string | null;
  website?: string | null;
  server_url?: string | null;
  result_url?: string | null;
  category_id?: string | null;
  active?: boolean;
}

const COLUMNS = `id, organization_id, name, address, description, website, server_url, result_url, category_id,
  (SELECT c.name FROM transaction_categories c WHERE c.id = category_id) AS category_name, active, created_at, updated_at`;

/**
 * Merchants' points of sale; a deleted one is kept (its payments name it) but is gone for every route. Reads
 * transaction categories (a read-only view of their table) to check and name a point's category.
 */
@Injectable()
export class PointsOfSaleRepository {
  constructor(private readonly db: Database) {}

  async insert(organizationId: string, fields: PosFields & { name: string }): Promise<PosRow> {
    const columns = Object.keys(fields).filter((k) => fields[k as keyof PosFields] !== undefined) as (keyof PosFields)[];
    const [row] = await this.db.query<PosRow>(
      `INSERT INTO points_of_sale (organization_id, ${columns.join(', ')}) VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})
       RETURNING ${COLUMNS}`,
      [organizationId, ...columns.map((k) => fields[k])],
    );
    return row;
  }

  /** Whether the transaction category is the user's own. */
  async isOwnCategory(userId: string, id: string): Promise<boolean> {
    const [{ found }] = await this.db.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM transaction_categories WHERE id = $1 AND user_id = $2) AS found`,
      [id, userId],
    );
    return found;
  }

  /** A point of sale not deleted; of `organizationId` when given. */
  async get(id: string, organizationId?: string): Promise<PosRow | undefined> {
    const params: unknown[] = [id];
    const own = organizationId ? ` AND organization_id = $${params.push(organizationId)}` : '';
    const [row] = await this.db.query<PosRow>(`SELECT ${COLUMNS} FROM points_of_sale WHERE id = $1 AND deleted_at IS NULL${own}`, params);
    return row;
  }

  async page(
    organizationId: string,
    active: boolean | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: PosRow[] }> {
    const params: unknown[] = [organizationId];
    const only = active === undefined ? '' : ` AND active = $${params.push(active)}`;
    const [{ n }] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM points_of_sale WHERE organization_id = $1 AND deleted_at IS NULL${only}`,
      params,
    );
    const rows = await this.db.query<PosRow>(
      `SELECT ${COLUMNS} FROM points_of_sale WHERE organization_id = $1 AND deleted_at IS NULL${only} ORDER BY name, id LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: n, rows };
  }

  async update(id: string, organizationId: string, fields: PosFields): Promise<PosRow | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [id, organizationId];
    for (const [column, value] of Object.entries(fields)) if (value !== undefined) sets.push(`${column} = $${params.push(value)}`);
    const [row] = await this.db.query<PosRow>(
      `UPDATE points_of_sale SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
      params,
    );
    return row;
  }

  /** Deletes once: a missing or already deleted point answers nothing (the route's 404, never a 200). */
  async delete(id: string, organizationId: string): Promise<PosRow | undefined> {
    const [row] = await this.db.query<PosRow>(
      `UPDATE points_of_sale SET deleted_at = now(), active = false WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
      [id, organizationId],
    );
    return row;
  }
}
