import { Module } from '@nestjs/common';
import { UsersModule } from '../../platform/users/users.module';
import { CoinsController } from './coins.controller';
import { CoinsRepository } from './coins.repository';
import { CoinsService } from './coins.service';
import { PayeeLookups } from './payee-lookups';

@Module({
  imports: [UsersModule],
  controllers: [CoinsController],
  providers: [CoinsRepository, CoinsService, PayeeLookups],
  exports: [CoinsService, PayeeLookups],
})
export class CoinsModule {}
