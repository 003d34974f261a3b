import { Module } from '@nestjs/common';
import { SchedulerModule } from '../../platform/scheduler/scheduler.module';
import { TransfersModule } from '../transfers/transfers.module';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';

@Module({
  imports: [TransfersModule, SchedulerModule],
  controllers: [SubscriptionsController],
  providers: [SubscriptionsRepository, SubscriptionsService],
})
export class SubscriptionsModule {}
