import { Query, Route, Routes } from '../../platform/http';
import * as dto from './dashboard.dto';
import { DashboardService } from './dashboard.service';

@Routes('dashboard')
export class DashboardController {
  constructor(private readonly service: DashboardService) {}

  /** Volumes per UTC day and currency, open holds, failed logins and webhook failures: the console's dashboard page (/dashboard). */
  @Route('GET', '', { access: ['DASHBOARD_VIEWER'], summary: "The operator's dashboard figures" })
  dashboard(@Query() query: dto.DashboardQueryDto): Promise<dto.DashboardDto> {
    return this.service.figures(query.days ?? 14);
  }
}
