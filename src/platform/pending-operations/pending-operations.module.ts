import { Global, Module } from '@nestjs/common';
import { PendingOperationsService } from './pending-operations.service';

@Global()
@Module({
  providers: [PendingOperationsService],
  exports: [PendingOperationsService],
})
export class PendingOperationsModule {}
