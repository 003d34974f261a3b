import { Injectable } from '@nestjs/common';
import type { OrganizationType } from './organization.types';
import { NamedOrganization, OrganizationContact, OrganizationRow, OrganizationsRepository } from './organizations.repository';

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
}
