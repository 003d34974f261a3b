import { Module } from '@nestjs/common';
import { OperationsReader } from './operations.reader';
import { ReversalsService } from './reversals.service';
import { TransactionsController } from './transactions.controller';

@Module({
  controllers: [TransactionsController],
  providers: [OperationsReader, ReversalsService],
  exports: [OperationsReader],
})
export class TransactionsModule {}
