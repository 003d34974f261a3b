import { Module } from '@nestjs/common';
import { BankAccountsModule } from '../bank-accounts/bank-accounts.module';
import { BankWithdrawalsController } from './bank-withdrawals.controller';
import { BankWithdrawalsRepository } from './bank-withdrawals.repository';
import { BankWithdrawalsService } from './bank-withdrawals.service';

@Module({
  imports: [BankAccountsModule],
  controllers: [BankWithdrawalsController],
  providers: [BankWithdrawalsRepository, BankWithdrawalsService],
})
export class BankWithdrawalsModule {}
