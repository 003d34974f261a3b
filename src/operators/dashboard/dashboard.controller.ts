import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { DashboardDto, DashboardQueryDto } from './dashboard.dto';
import { DashboardService } from './dashboard.service';

@ApiTags('dashboard')
@Controller('dashboard')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  /** Volumes per UTC day and currency, open holds, failed logins and webhook failures: the console's dashboard page (/dashboard). */
  @Get()
  @RequirePermissions('DASHBOARD_VIEWER')
  @ApiOperation({ summary: "The operator's dashboard figures", operationId: 'dashboard' })
  @ApiOkResponse({ type: DashboardDto })
  figures(@Query() query: DashboardQueryDto): Promise<DashboardDto> {
    return this.dashboard.figures(query.days ?? 14);
  }
}
