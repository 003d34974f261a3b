import { Global, Module } from '@nestjs/common';
import { CommissionProfilesService } from './commission-profiles.service';
import { CommissionsController } from './commissions.controller';
import { CommissionsRepository } from './commissions.repository';
import { CommissionsService } from './commissions.service';
import { LimitsRepository } from './limits.repository';
import { LimitsService } from './limits.service';
import { PricingCache } from './pricing-cache';

@Global()
@Module({
  controllers: [CommissionsController],
  providers: [CommissionsRepository, CommissionsService, CommissionProfilesService, LimitsRepository, LimitsService, PricingCache],
  exports: [CommissionsService, CommissionProfilesService, PricingCache],
})
export class CommissionsModule {}
