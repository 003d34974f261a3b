import { Body, Route, Routes } from '../http';
import { Inject } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import * as dto from './dto/scheduler.dto';
import { isCalendarDate, utcToday } from './scheduler.clock';
import { SchedulerService } from './scheduler.service';

@Routes('scheduler')
export class SchedulerController {
  constructor(
    private readonly scheduler: SchedulerService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Runs now what each instance's poll would: every due date up to today not yet run; calling it again runs only what has become due. */
  @Route('POST', 'run', { summary: 'Run the scheduled work due now', access: ['SCHEDULER_OPERATOR'], status: 200 })
  async runScheduler(@Body() body: dto.RunSchedulerDto): Promise<dto.SchedulerRunDto> {
    if (body.today !== undefined && !this.config.schedulerTestClock) {
      throw ApiError.invalid('today', 'may only be given when the service runs with SCHEDULER_TEST_CLOCK=true');
    }
    if (body.today !== undefined && !isCalendarDate(body.today)) throw ApiError.invalid('today', 'must be a real date');
    const today = body.today ?? utcToday();
    return { status: 'ok', message: 'OK', today, runs: await this.scheduler.runDue(today) };
  }
}
