import { Module } from '@nestjs/common';
import { CoinsModule } from '../../money-movement/coins/coins.module';
import { InvoicesController, InvoiceTemplatesController } from './invoices.controller';
import { InvoicesRepository } from './invoices.repository';
import { InvoicesService } from './invoices.service';

@Module({
  imports: [CoinsModule],
  controllers: [InvoicesController, InvoiceTemplatesController],
  providers: [InvoicesService, InvoicesRepository],
})
export class InvoicesModule {}
