import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { Page, pageOf, pageWindow } from '../common/paging.dto';
import type { OrganizationRecordDto, OrganizationViewDto } from '../organizations/dto/organization.dto';
import { OrganizationsService } from '../organizations/organizations.service';

/** Organizations as people read them: members their own, staff with USER_VIEWER any (404 otherwise). */
@Injectable()
export class OrganizationViewsService {
  constructor(private readonly organizations: OrganizationsService) {}

  async get(principal: Principal, id: string): Promise<OrganizationRecordDto> {
    const record = this.seesAll(principal) || principal.organizationId === id ? await this.organizations.record(id) : undefined;
    if (!record) throw new ApiError('exception.organization.not_found');
    return record;
  }

  async view(principal: Principal, dto: OrganizationViewDto): Promise<Page<OrganizationRecordDto>> {
    const { offset, limit } = pageWindow(dto);
    const ids = this.seesAll(principal) ? undefined : [principal.organizationId];
    const { total, records } = await this.organizations.search({ ...(dto.filter ?? {}), ids }, offset, limit);
    return pageOf(dto, total, records);
  }

  private seesAll(principal: Principal): boolean {
    return principal.permissions.has('USER_VIEWER');
  }
}
