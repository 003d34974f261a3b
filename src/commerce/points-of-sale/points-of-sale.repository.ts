import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface PosRow {
  id: string;
  organization_id: string;
  name: string;
  address: string | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, organization_id, name, address, active, created_at, updated_at';

/** Merchants' points of sale; a deleted one is kept (its payments name it) but is gone for every route. */
@Injectable()
export class PointsOfSaleRepository {
  constructor(private readonly db: Database) {}

  async insert(values: { organizationId: string; name: string; address: string | null; active: boolean }): Promise<PosRow> {
    const [row] = await this.db.query<PosRow>(
      `INSERT INTO points_of_sale (organization_id, name, address, active) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [values.organizationId, values.name, values.address, values.active],
    );
    return row;
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

  async update(
    id: string,
    organizationId: string,
    fields: { name?: string; address?: string | null; active?: boolean },
  ): Promise<PosRow | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [id, organizationId];
    if (fields.name !== undefined) sets.push(`name = $${params.push(fields.name)}`);
    if (fields.address !== undefined) sets.push(`address = $${params.push(fields.address)}`);
    if (fields.active !== undefined) sets.push(`active = $${params.push(fields.active)}`);
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
