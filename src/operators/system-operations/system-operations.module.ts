import { Module } from '@nestjs/common';
import { CoinsModule } from '../../money-movement/coins/coins.module';
import { SystemOperationsController } from './system-operations.controller';
import { SystemOperationsRepository } from './system-operations.repository';
import { SystemOperationsService } from './system-operations.service';

@Module({
  imports: [CoinsModule],
  controllers: [SystemOperationsController],
  providers: [SystemOperationsRepository, SystemOperationsService],
})
export class SystemOperationsModule {}
