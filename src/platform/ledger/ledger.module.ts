import { Global, Module } from '@nestjs/common';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { OperationsRepository } from './operations.repository';
import { OperationsService } from './operations.service';

@Global()
@Module({
  providers: [LedgerRepository, LedgerService, OperationsRepository, OperationsService],
  exports: [LedgerService, OperationsService],
})
export class LedgerModule {}
