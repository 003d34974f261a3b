import { Injectable } from '@nestjs/common';
import type { OrganizationType } from './organization.types';
import { OrganizationContact, OrganizationRow, OrganizationsRepository } from './organizations.repository';

/** Organizations: who owns coins and whom users act for. */
@Injectable()
export class OrganizationsService {
  constructor(private readonly organizations: OrganizationsRepository) {}

  create(type: OrganizationType, name: string, contact: OrganizationContact = {}): Promise<string> {
    return this.organizations.insert(type, name, contact);
  }

  find(id: string): Promise<OrganizationRow | undefined> {
    return this.organizations.find(id);
  }
}
