import { Module } from '@nestjs/common';
import { SmartCardsController } from './smart-cards.controller';
import { SmartCardsRepository } from './smart-cards.repository';
import { SmartCardsService } from './smart-cards.service';

@Module({
  controllers: [SmartCardsController],
  providers: [SmartCardsRepository, SmartCardsService],
  exports: [SmartCardsService],
})
export class SmartCardsModule {}
