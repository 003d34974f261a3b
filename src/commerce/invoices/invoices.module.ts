import { Module } from '@nestjs/common';
import { InvoicesController, InvoiceTemplatesController } from './invoices.controller';
import { InvoicesRepository } from './invoices.repository';
import { InvoicesService } from './invoices.service';

@Module({ controllers: [InvoicesController, InvoiceTemplatesController], providers: [InvoicesService, InvoicesRepository] })
export class InvoicesModule {}
