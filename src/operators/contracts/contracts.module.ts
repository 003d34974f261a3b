import { Module } from '@nestjs/common';
import { LimitProfilesModule } from '../limit-profiles/limit-profiles.module';
import { CommissionProfilesController } from './commission-profiles.controller';
import { ContractsController, OrganizationContractsController } from './contracts.controller';
import { ContractsRepository } from './contracts.repository';
import { ContractsService } from './contracts.service';

@Module({
  imports: [LimitProfilesModule],
  controllers: [ContractsController, OrganizationContractsController, CommissionProfilesController],
  providers: [ContractsRepository, ContractsService],
})
export class ContractsModule {}
