import { Module } from '@nestjs/common';
import { BankCatalogController } from './bank-catalog.controller';
import { BankCatalogRepository } from './bank-catalog.repository';
import { BankCatalogService } from './bank-catalog.service';

@Module({
  controllers: [BankCatalogController],
  providers: [BankCatalogRepository, BankCatalogService],
  exports: [BankCatalogService],
})
export class BankCatalogModule {}
