import { Module } from '@nestjs/common';
import { BankTopUpsController } from './bank-top-ups.controller';
import { BankTopUpsService } from './bank-top-ups.service';

@Module({
  controllers: [BankTopUpsController],
  providers: [BankTopUpsService],
})
export class BankTopUpsModule {}
