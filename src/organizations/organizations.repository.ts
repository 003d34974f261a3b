import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import type { OrganizationType } from './organization.types';

export interface OrganizationRow {
  id: string;
  type: OrganizationType;
}

@Injectable()
export class OrganizationsRepository {
  constructor(private readonly db: Database) {}

  async insert(type: OrganizationType, name: string): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(`INSERT INTO organizations (type, name) VALUES ($1, $2) RETURNING id`, [type, name]);
    return row.id;
  }

  async find(id: string): Promise<OrganizationRow | undefined> {
    const [row] = await this.db.query<OrganizationRow>(`SELECT id, type FROM organizations WHERE id = $1`, [id]);
    return row;
  }
}
