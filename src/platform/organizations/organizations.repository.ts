import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { containing } from '../database/search-sql';
import type { OrganizationType } from './organization.types';

/** How to reach an organization: shown as an operation's sender or recipient. */
export interface OrganizationContact {
  email?: string | null;
  phoneNumber?: string | null;
}

export interface OrganizationRow {
  id: string;
  type: OrganizationType;
  contract_id: string;
}

export interface NamedOrganization {
  id: string;
  type: OrganizationType;
  name: string;
  created_at: Date;
}

export interface OrganizationRecordRow {
  id: string;
  type: OrganizationType;
  name: string;
  identification_status: string;
  contract_id: string;
  person_type: string;
  email: string | null;
  phone_number: string | null;
  created_at: Date;
}

const RECORD_COLUMNS = 'id, type, name, identification_status, contract_id, person_type, email, phone_number, created_at';

@Injectable()
export class OrganizationsRepository {
  constructor(private readonly db: Database) {}

  /** A new organization gets its type's default contract (the database's trigger organizations_default_contract). */
  async insert(type: OrganizationType, name: string, contact: OrganizationContact): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO organizations (type, name, email, phone_number) VALUES ($1, $2, $3, $4) RETURNING id`,
      [type, name, contact.email ?? null, contact.phoneNumber ?? null],
    );
    return row.id;
  }

  async find(id: string, lock = false): Promise<OrganizationRow | undefined> {
    const [row] = await this.db.query<OrganizationRow>(
      `SELECT id, type, contract_id FROM organizations WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return row;
  }

  /** A page of the organizations of a type (optionally only `ids`), by name. */
  async list(
    type: OrganizationType,
    ids: string[] | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: NamedOrganization[] }> {
    const params: unknown[] = [type];
    const only = ids ? ` AND id = ANY($${params.push(ids)}::uuid[])` : '';
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organizations WHERE type = $1${only}`, params);
    const rows = await this.db.query<NamedOrganization>(
      `SELECT id, type, name, created_at FROM organizations WHERE type = $1${only} ORDER BY name, id LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: n, rows };
  }

  async setContract(id: string, contractId: string): Promise<void> {
    await this.db.query(`UPDATE organizations SET contract_id = $2 WHERE id = $1`, [id, contractId]);
  }

  /** Whether an organization other than `exceptId` holds the contract. */
  async contractHeldByAnother(contractId: string, exceptId: string): Promise<boolean> {
    const [{ held }] = await this.db.query<{ held: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM organizations WHERE contract_id = $1 AND id <> $2) AS held`,
      [contractId, exceptId],
    );
    return held;
  }

  /** One organization as staff read it. */
  async record(id: string): Promise<OrganizationRecordRow | undefined> {
    const [row] = await this.db.query<OrganizationRecordRow>(`SELECT ${RECORD_COLUMNS} FROM organizations WHERE id = $1`, [id]);
    return row;
  }

  /** A page of organizations by name, with the filters given. */
  async search(
    filter: { types?: string[]; identificationStatuses?: string[]; name?: string; ids?: string[] },
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: OrganizationRecordRow[] }> {
    const where: string[] = [`type <> 'system'`];
    const params: unknown[] = [];
    if (filter.types?.length) where.push(`type = ANY($${params.push(filter.types)}::text[])`);
    if (filter.identificationStatuses?.length)
      where.push(`identification_status = ANY($${params.push(filter.identificationStatuses)}::text[])`);
    if (filter.name) where.push(`name ILIKE $${params.push(containing(filter.name))}`);
    if (filter.ids) where.push(`id = ANY($${params.push(filter.ids)}::uuid[])`);
    const clause = `WHERE ${where.join(' AND ')}`;
    const count = await this.db.countRows(`FROM organizations ${clause}`, params);
    const rows = await this.db.query<OrganizationRecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM organizations ${clause} ORDER BY name, id LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: count.total, rows };
  }
}
