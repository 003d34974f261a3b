import { Global, Module } from '@nestjs/common';
import { SchedulerController } from './scheduler.controller';
import { SchedulerRepository } from './scheduler.repository';
import { SchedulerService } from './scheduler.service';

/** The kernel's scheduler: modules register jobs whose due dates it runs exactly once across instances. */
@Global()
@Module({
  controllers: [SchedulerController],
  providers: [SchedulerRepository, SchedulerService],
  exports: [SchedulerService],
})
export class SchedulerModule {}
