import { Module } from '@nestjs/common';
import { PointsOfSaleModule } from '../points-of-sale/points-of-sale.module';
import { TransactionsModule } from '../../money-movement/transactions/transactions.module';
import { VouchersModule } from '../vouchers/vouchers.module';
import { MerchantPaymentsController, PosTransactionsController } from './merchant-payments.controller';
import { MerchantParties } from './merchant-parties';
import { MerchantPaymentsRepository } from './merchant-payments.repository';
import { MerchantPaymentsService } from './merchant-payments.service';

@Module({
  imports: [PointsOfSaleModule, VouchersModule, TransactionsModule],
  controllers: [MerchantPaymentsController, PosTransactionsController],
  providers: [MerchantPaymentsService, MerchantPaymentsRepository, MerchantParties],
})
export class MerchantPaymentsModule {}
