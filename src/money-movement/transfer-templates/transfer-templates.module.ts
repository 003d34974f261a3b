import { Module } from '@nestjs/common';
import { CoinsModule } from '../coins/coins.module';
import { TransfersModule } from '../transfers/transfers.module';
import { TransferTemplatesController } from './transfer-templates.controller';
import { TransferTemplatesRepository } from './transfer-templates.repository';
import { TransferTemplatesService } from './transfer-templates.service';

@Module({
  imports: [TransfersModule, CoinsModule],
  controllers: [TransferTemplatesController],
  providers: [TransferTemplatesRepository, TransferTemplatesService],
})
export class TransferTemplatesModule {}
