import { Module } from '@nestjs/common';
import { ExchangeRatesModule } from '../exchange-rates/exchange-rates.module';
import { ExchangeController } from './exchange.controller';
import { ExchangeRepository } from './exchange.repository';
import { ExchangeService } from './exchange.service';

@Module({
  imports: [ExchangeRatesModule],
  controllers: [ExchangeController],
  providers: [ExchangeRepository, ExchangeService],
})
export class ExchangeModule {}
