import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import type { OrganizationType } from './organization.types';

/** How to reach an organization: shown as an operation's sender or recipient. */
export interface OrganizationContact {
  email?: string | null;
  phoneNumber?: string | null;
}

export interface OrganizationRow {
  id: string;
  type: OrganizationType;
}

@Injectable()
export class OrganizationsRepository {
  constructor(private readonly db: Database) {}

  async insert(type: OrganizationType, name: string, contact: OrganizationContact): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO organizations (type, name, email, phone_number) VALUES ($1, $2, $3, $4) RETURNING id`,
      [type, name, contact.email ?? null, contact.phoneNumber ?? null],
    );
    return row.id;
  }

  async find(id: string): Promise<OrganizationRow | undefined> {
    const [row] = await this.db.query<OrganizationRow>(`SELECT id, type FROM organizations WHERE id = $1`, [id]);
    return row;
  }
}
