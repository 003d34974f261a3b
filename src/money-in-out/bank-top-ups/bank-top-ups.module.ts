import { Module } from '@nestjs/common';
import { BankCatalogModule } from '../bank-catalog/bank-catalog.module';
import { BankTopUpsController } from './bank-top-ups.controller';
import { BankTopUpsRepository } from './bank-top-ups.repository';
import { BankTopUpsService } from './bank-top-ups.service';

@Module({
  imports: [BankCatalogModule],
  controllers: [BankTopUpsController],
  providers: [BankTopUpsRepository, BankTopUpsService],
})
export class BankTopUpsModule {}
