import { Global, Logger, Module } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { auditChainKey } from '../config/audit-chain-key';
import { APP_CONFIG, AppConfig } from '../config/config';
import { OneTimeCodesRepository } from './one-time-codes.repository';
import { OneTimeCodesService } from './one-time-codes.service';
import { CODE_KEY } from './one-time-codes.types';

/**
 * Global: sign-up, login confirmation, recovery and the change of login issue and check codes here. The codes' key
 * is derived from the action log's (AUDIT_CHAIN_KEY, or the one kept in DATA_DIR): one secret to keep, never stored
 * beside the hashes. Codes and notices leave through the messages outbox (MessagesService), after the commit.
 */
@Global()
@Module({
  providers: [
    {
      provide: CODE_KEY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        createHmac(
          'sha256',
          auditChainKey(config, (file) => new Logger('OneTimeCodes').warn(`Generated the service's key in ${file}`)),
        )
          .update('one-time-codes')
          .digest(),
    },
    OneTimeCodesRepository,
    OneTimeCodesService,
  ],
  exports: [OneTimeCodesService],
})
export class OneTimeCodesModule {}
