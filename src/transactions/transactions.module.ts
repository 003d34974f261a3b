import { Module } from '@nestjs/common';
import { OperationsReader } from './operations.reader';
import { TransactionsController } from './transactions.controller';

@Module({
  controllers: [TransactionsController],
  providers: [OperationsReader],
  exports: [OperationsReader],
})
export class TransactionsModule {}
