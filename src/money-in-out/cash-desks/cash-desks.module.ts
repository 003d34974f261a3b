import { Module } from '@nestjs/common';
import { CoinsModule } from '../../money-movement/coins/coins.module';
import { CashDeskOperationsService } from './cash-desk-operations.service';
import { CashDeskWithdrawalsController } from './cash-desk-withdrawals.controller';
import { CashDeskWithdrawalsService } from './cash-desk-withdrawals.service';
import { CashDeskOperationsController, CashDesksController } from './cash-desks.controller';
import { CashDesksRepository } from './cash-desks.repository';
import { CashDesksService } from './cash-desks.service';
import { CashOutCodesRepository } from './cash-out-codes.repository';
import { CashOutCodesService } from './cash-out-codes.service';

@Module({
  imports: [CoinsModule],
  controllers: [CashDesksController, CashDeskOperationsController, CashDeskWithdrawalsController],
  providers: [
    CashDesksRepository,
    CashDesksService,
    CashDeskOperationsService,
    CashDeskWithdrawalsService,
    CashOutCodesRepository,
    CashOutCodesService,
  ],
})
export class CashDesksModule {}
