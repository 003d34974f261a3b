import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { OrganizationPageDto, OrganizationResponseDto, OrganizationViewDto } from '../../platform/organizations/dto/organization.dto';
import { OrganizationViewsService } from './organization-views.service';

/** Organizations: members read their own, staff (USER_VIEWER) any. */
@ApiTags('organizations')
@Controller('organizations')
export class OrganizationViewsController {
  constructor(private readonly organizations: OrganizationViewsService) {}

  /**
   * An organization with its type, name, identification status and contact: the caller's own, or any for staff with
   * USER_VIEWER. Any other is a 404, as an unknown one.
   */
  @Get(':id')
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @RequirePermissions('ORGANIZATION_VIEWER')
  @ApiOperation({ summary: 'An organization', operationId: 'getOrganization' })
  @ApiOkResponse({ type: OrganizationResponseDto })
  @ApiNotFoundResponse({
    description: 'exception.organization.not_found: no such organization, or not one the caller may see',
    type: ErrorResponseDto,
  })
  async get(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<OrganizationResponseDto> {
    return { status: 'ok', message: 'OK', organization: await this.organizations.get(principal, id) };
  }

  /**
   * Organizations by name, type and identification status: staff with USER_VIEWER search them all, anyone else finds
   * only their own.
   */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('ORGANIZATION_VIEWER')
  @ApiOperation({ summary: 'Search organizations by name, type and identification status', operationId: 'viewOrganizations' })
  @ApiOkResponse({ type: OrganizationPageDto })
  view(@Body() dto: OrganizationViewDto, @CurrentPrincipal() principal: Principal): Promise<OrganizationPageDto> {
    return this.organizations.view(principal, dto);
  }
}
