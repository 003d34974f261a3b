import { Module } from '@nestjs/common';
import { CurrenciesController, IssuersController } from './currencies.controller';
import { CurrenciesRepository } from './currencies.repository';
import { CurrenciesService } from './currencies.service';

@Module({
  controllers: [CurrenciesController, IssuersController],
  providers: [CurrenciesRepository, CurrenciesService],
  exports: [CurrenciesService],
})
export class CurrenciesModule {}
