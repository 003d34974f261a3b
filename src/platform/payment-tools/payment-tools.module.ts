import { Global, Module } from '@nestjs/common';
import { PaymentToolsService } from './payment-tools.service';

@Global()
@Module({ providers: [PaymentToolsService], exports: [PaymentToolsService] })
export class PaymentToolsModule {}
