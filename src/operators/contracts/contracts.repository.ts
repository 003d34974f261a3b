import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import { containing } from '../../platform/database/search-sql';
import type { OrganizationType, PersonType } from '../../platform/organizations/organization.types';

export interface ContractRow {
  id: string;
  name: string;
  description: string | null;
  organization_type: OrganizationType;
  person_type: PersonType;
  active: boolean;
  global: boolean;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ContractSearch {
  ids?: string[];
  organizationTypes?: string[];
  personTypes?: string[];
  /** Organization types whose contracts match whatever their person type (as `personTypes` values). */
  anyPersonTypeOf?: string[];
  active?: boolean;
  global?: boolean;
  name?: string;
  description?: string;
  createdFrom?: string;
  createdTo?: string;
  /** Columns and directions, in order. */
  sort: [SortColumn, 'ASC' | 'DESC'][];
  offset: number;
  limit: number;
}

export type SortColumn = 'name' | 'created_at' | 'id' | 'organization_type' | 'person_type' | 'description' | 'active' | 'global';

const COLUMNS = 'id, name, description, organization_type, person_type, active, global, is_default, created_at, updated_at';

/** contracts. */
@Injectable()
export class ContractsRepository {
  constructor(private readonly db: Database) {}

  async insert(values: Omit<ContractRow, 'id' | 'is_default' | 'created_at' | 'updated_at'>): Promise<ContractRow> {
    const [row] = await this.db.query<ContractRow>(
      `INSERT INTO contracts (name, description, organization_type, person_type, active, global) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING ${COLUMNS}`,
      [values.name, values.description, values.organization_type, values.person_type, values.active, values.global],
    );
    return row;
  }

  async find(id: string, lock = false): Promise<ContractRow | undefined> {
    const [row] = await this.db.query<ContractRow>(`SELECT ${COLUMNS} FROM contracts WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return row;
  }

  async update(row: ContractRow): Promise<ContractRow> {
    const [updated] = await this.db.query<ContractRow>(
      `UPDATE contracts SET name = $2, description = $3, person_type = $4, active = $5, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      [row.id, row.name, row.description, row.person_type, row.active],
    );
    return updated;
  }

  async search(search: ContractSearch): Promise<{ total: number; rows: ContractRow[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (search.ids?.length) where.push(`id = ANY($${params.push(search.ids)}::uuid[])`);
    if (search.organizationTypes?.length) where.push(`organization_type = ANY($${params.push(search.organizationTypes)}::text[])`);
    if (search.personTypes?.length || search.anyPersonTypeOf?.length) {
      where.push(
        `(person_type = ANY($${params.push(search.personTypes ?? [])}::text[]) OR organization_type = ANY($${params.push(search.anyPersonTypeOf ?? [])}::text[]))`,
      );
    }
    if (search.active !== undefined) where.push(`active = $${params.push(search.active)}`);
    if (search.global !== undefined) where.push(`global = $${params.push(search.global)}`);
    if (search.name) where.push(`name ILIKE $${params.push(containing(search.name))}`);
    if (search.description) where.push(`description ILIKE $${params.push(containing(search.description))}`);
    if (search.createdFrom) where.push(`created_at >= $${params.push(search.createdFrom)}::timestamptz`);
    if (search.createdTo) where.push(`created_at < $${params.push(search.createdTo)}::timestamptz`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM contracts ${clause}`, params);
    const rows = await this.db.query<ContractRow>(
      `SELECT ${COLUMNS} FROM contracts ${clause} ORDER BY ${[...search.sort.map(([c, d]) => `${c} ${d}`), 'id'].join(', ')}
        LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { total: n, rows };
  }
}
