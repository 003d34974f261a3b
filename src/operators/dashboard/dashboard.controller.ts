import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../../platform/http/route.decorator';
import { DashboardDto, DashboardQueryDto } from './dashboard.dto';
import { DashboardService } from './dashboard.service';

@ApiTags('dashboard')
@Controller('dashboard')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  /** Volumes per UTC day and currency, open holds, failed logins and webhook failures: the console's dashboard page (/dashboard). */
  @Route('GET', '', { access: ['DASHBOARD_VIEWER'], id: 'dashboard', summary: "The operator's dashboard figures" })
  figures(@Query() query: DashboardQueryDto): Promise<DashboardDto> {
    return this.dashboard.figures(query.days ?? 14);
  }
}
