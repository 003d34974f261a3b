import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { OrganizationPageDto, OrganizationResponseDto, OrganizationViewDto } from '../../platform/organizations/dto/organization.dto';
import { OrganizationViewsService } from './organization-views.service';

const VIEWER = { access: ['ORGANIZATION_VIEWER'] } as const;

/** Organizations: members read their own, staff (USER_VIEWER) any. */
@Routes('organizations')
export class OrganizationViewsController {
  constructor(private readonly organizations: OrganizationViewsService) {}

  /** An organization with its type, name, identification status and contact: the caller's own, or any for staff with USER_VIEWER. */
  @Route('GET', ':id', {
    ...VIEWER,
    summary: 'An organization',
    errors: [['exception.organization.not_found', 'no such organization, or not one the caller may see']],
  })
  async getOrganization(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<OrganizationResponseDto> {
    return { status: 'ok', message: 'OK', organization: await this.organizations.get(caller, id) };
  }

  /** Organizations by name, type and identification status: staff with USER_VIEWER search them all, anyone else finds only their own. */
  @Route('POST', 'view', { ...VIEWER, summary: 'Search organizations by name, type and identification status', status: 200 })
  viewOrganizations(@Body() dto: OrganizationViewDto, @Caller() caller: Principal): Promise<OrganizationPageDto> {
    return this.organizations.view(caller, dto);
  }
}
