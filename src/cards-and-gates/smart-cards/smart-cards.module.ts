import { Module } from '@nestjs/common';
import { auditChainKey } from '../../platform/config/audit-chain-key';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { cardNumberKey } from './card-number';
import { SmartCardsController } from './smart-cards.controller';
import { SmartCardsRepository } from './smart-cards.repository';
import { CARD_NUMBER_KEY, SmartCardsService } from './smart-cards.service';

@Module({
  controllers: [SmartCardsController],
  providers: [
    SmartCardsRepository,
    SmartCardsService,
    // The service's secret (AUDIT_CHAIN_KEY, or the key kept in DATA_DIR) keys the hashes of card numbers: one secret to
    // keep with the backups. Changing it leaves the cards unfound by number (they still pay and are paid to by id).
    { provide: CARD_NUMBER_KEY, inject: [APP_CONFIG], useFactory: (config: AppConfig) => cardNumberKey(auditChainKey(config)) },
  ],
  exports: [SmartCardsService],
})
export class SmartCardsModule {}
