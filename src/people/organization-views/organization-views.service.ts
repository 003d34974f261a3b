import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import type { OrganizationRecordDto, OrganizationViewDto } from '../../platform/organizations/dto/organization.dto';
import { OrganizationsService } from '../../platform/organizations/organizations.service';

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
