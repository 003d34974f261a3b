import { Module } from '@nestjs/common';
import { BankCatalogModule } from '../bank-catalog/bank-catalog.module';
import { BankAccountsController } from './bank-accounts.controller';
import { BankAccountsRepository } from './bank-accounts.repository';
import { BankAccountsService } from './bank-accounts.service';

@Module({
  imports: [BankCatalogModule],
  controllers: [BankAccountsController],
  providers: [BankAccountsRepository, BankAccountsService],
  exports: [BankAccountsService],
})
export class BankAccountsModule {}
