import { Module } from '@nestjs/common';
import { CoinsModule } from '../coins/coins.module';
import { CashDeskOperationsService } from './cash-desk-operations.service';
import { CashDeskOperationsController, CashDesksController } from './cash-desks.controller';
import { CashDesksRepository } from './cash-desks.repository';
import { CashDesksService } from './cash-desks.service';

@Module({
  imports: [CoinsModule],
  controllers: [CashDesksController, CashDeskOperationsController],
  providers: [CashDesksRepository, CashDesksService, CashDeskOperationsService],
})
export class CashDesksModule {}
