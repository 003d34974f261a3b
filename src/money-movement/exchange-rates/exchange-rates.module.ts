import { Module } from '@nestjs/common';
import { ExchangeRatesController } from './exchange-rates.controller';
import { ExchangeRatesRepository } from './exchange-rates.repository';
import { ExchangeRatesService } from './exchange-rates.service';
import { RatesInForce } from './rates-in-force';

@Module({
  controllers: [ExchangeRatesController],
  providers: [ExchangeRatesRepository, ExchangeRatesService, RatesInForce],
  exports: [ExchangeRatesService],
})
export class ExchangeRatesModule {}
