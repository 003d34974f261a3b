import { Module } from '@nestjs/common';
import { TransferTemplatesController } from './transfer-templates.controller';
import { TransferTemplatesRepository } from './transfer-templates.repository';
import { TransferTemplatesService } from './transfer-templates.service';

@Module({
  controllers: [TransferTemplatesController],
  providers: [TransferTemplatesRepository, TransferTemplatesService],
})
export class TransferTemplatesModule {}
