import { Module } from '@nestjs/common';
import { MerchantProductsController } from './merchant-products.controller';
import { MerchantProductsRepository } from './merchant-products.repository';
import { MerchantProductsService } from './merchant-products.service';

@Module({
  controllers: [MerchantProductsController],
  providers: [MerchantProductsService, MerchantProductsRepository],
  exports: [MerchantProductsService, MerchantProductsRepository],
})
export class MerchantProductsModule {}
