import { Injectable } from '@nestjs/common';
import type { OrganizationType } from './organization.types';
import { OrganizationRow, OrganizationsRepository } from './organizations.repository';

/** Organizations: who owns coins and whom users act for. */
@Injectable()
export class OrganizationsService {
  constructor(private readonly organizations: OrganizationsRepository) {}

  create(type: OrganizationType, name: string): Promise<string> {
    return this.organizations.insert(type, name);
  }

  find(id: string): Promise<OrganizationRow | undefined> {
    return this.organizations.find(id);
  }
}
