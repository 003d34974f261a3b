import { Injectable } from '@nestjs/common';
import type { OrganizationRecordDto, OrganizationFilterDto } from './dto/organization.dto';
import type { OrganizationType } from './organization.types';
import {
  NamedOrganization,
  OrganizationContact,
  OrganizationRecordRow,
  OrganizationRow,
  OrganizationsRepository,
} from './organizations.repository';

function toRecord(row: OrganizationRecordRow): OrganizationRecordDto {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    identificationStatus: row.identification_status,
    contract_info: { id: row.contract_id, personType: row.person_type },
    email: row.email,
    phoneNumber: row.phone_number,
    createdAt: row.created_at.toISOString(),
  };
}

export type { NamedOrganization } from './organizations.repository';

/** Organizations: who owns coins and whom users act for. Each follows a contract (its commissions). */
@Injectable()
export class OrganizationsService {
  constructor(private readonly organizations: OrganizationsRepository) {}

  create(type: OrganizationType, name: string, contact: OrganizationContact = {}): Promise<string> {
    return this.organizations.insert(type, name, contact);
  }

  /** `lock` takes the row FOR UPDATE (inside the caller's unit of work). */
  find(id: string, lock = false): Promise<OrganizationRow | undefined> {
    return this.organizations.find(id, lock);
  }

  /** A page of the organizations of a type (optionally only `ids`), by name. */
  list(
    type: OrganizationType,
    ids: string[] | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: NamedOrganization[] }> {
    return this.organizations.list(type, ids, offset, limit);
  }

  /** Points the organization at another contract; the caller has checked the contract fits. */
  setContract(id: string, contractId: string): Promise<void> {
    return this.organizations.setContract(id, contractId);
  }

  contractHeldByAnother(contractId: string, exceptId: string): Promise<boolean> {
    return this.organizations.contractHeldByAnother(contractId, exceptId);
  }

  /** One organization as staff read it (never the system organization). */
  async record(id: string): Promise<OrganizationRecordDto | undefined> {
    const row = await this.organizations.record(id);
    return row && row.type !== 'system' ? toRecord(row) : undefined;
  }

  /** A page of organizations by name (never the system organization), optionally only `ids`. */
  async search(
    filter: OrganizationFilterDto & { ids?: string[] },
    offset: number,
    limit: number,
  ): Promise<{ total: number; records: OrganizationRecordDto[] }> {
    const { total, rows } = await this.organizations.search(filter, offset, limit);
    return { total, records: rows.map(toRecord) };
  }
}
