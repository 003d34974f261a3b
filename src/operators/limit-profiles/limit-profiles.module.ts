import { Module } from '@nestjs/common';
import { LimitProfilesController } from './limit-profiles.controller';
import { LimitProfilesRepository } from './limit-profiles.repository';
import { LimitProfilesService } from './limit-profiles.service';

@Module({
  controllers: [LimitProfilesController],
  providers: [LimitProfilesRepository, LimitProfilesService],
  exports: [LimitProfilesService],
})
export class LimitProfilesModule {}
