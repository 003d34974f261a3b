import { Global, Module } from '@nestjs/common';
import { IdempotencyService } from '../common/idempotency';
import { LedgerService } from './ledger.service';

@Global()
@Module({
  providers: [LedgerService, IdempotencyService],
  exports: [LedgerService, IdempotencyService],
})
export class LedgerModule {}
