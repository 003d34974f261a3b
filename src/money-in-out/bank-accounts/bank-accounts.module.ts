import { Module } from '@nestjs/common';
import { BankCatalogModule } from '../bank-catalog/bank-catalog.module';
import { BankAccountsController } from './bank-accounts.controller';
import { BankAccountsRepository } from './bank-accounts.repository';
import { BankAccountsService } from './bank-accounts.service';
import { MyBankAccountsController } from './my-bank-accounts.controller';

@Module({
  imports: [BankCatalogModule],
  controllers: [BankAccountsController, MyBankAccountsController],
  providers: [BankAccountsRepository, BankAccountsService],
  exports: [BankAccountsService],
})
export class BankAccountsModule {}
