import { Module } from '@nestjs/common';
import { UsersModule } from '../../platform/users/users.module';
import { CoinsController } from './coins.controller';
import { CoinsRepository } from './coins.repository';
import { CoinsService } from './coins.service';

@Module({
  imports: [UsersModule],
  controllers: [CoinsController],
  providers: [CoinsRepository, CoinsService],
  exports: [CoinsService],
})
export class CoinsModule {}
