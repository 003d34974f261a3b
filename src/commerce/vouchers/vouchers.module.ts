import { Module } from '@nestjs/common';
import { PrepaidCoinsController } from './prepaid-coins.controller';
import { VouchersController } from './vouchers.controller';
import { VouchersRepository } from './vouchers.repository';
import { VouchersService } from './vouchers.service';

@Module({
  controllers: [VouchersController, PrepaidCoinsController],
  providers: [VouchersRepository, VouchersService],
  exports: [VouchersService],
})
export class VouchersModule {}
