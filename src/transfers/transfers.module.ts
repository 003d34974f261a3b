import { Module } from '@nestjs/common';
import { TransactionsModule } from '../transactions/transactions.module';
import { BankTopUpsController, TransfersController } from './transfers.controller';
import { TransfersService } from './transfers.service';

@Module({
  imports: [TransactionsModule],
  controllers: [TransfersController, BankTopUpsController],
  providers: [TransfersService],
})
export class TransfersModule {}
