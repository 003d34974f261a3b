import { Module } from '@nestjs/common';
import { CoinsModule } from '../../money-movement/coins/coins.module';
import { SmartCardsModule } from '../smart-cards/smart-cards.module';
import { GateCommissionsController, GateProductsController, GateProvidersController, GateTransactionsController } from './gates.controller';
import { GateCommissionsService } from './gate-commissions.service';
import { GateTransactionsService } from './gate-transactions.service';
import { GatesRepository } from './gates.repository';
import { GatesService } from './gates.service';

@Module({
  imports: [SmartCardsModule, CoinsModule],
  controllers: [GateProvidersController, GateProductsController, GateTransactionsController, GateCommissionsController],
  providers: [GatesRepository, GatesService, GateCommissionsService, GateTransactionsService],
})
export class GatesModule {}
