import { Global, Logger, Module } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { auditChainKey } from '../config/audit-chain-key';
import { APP_CONFIG, AppConfig } from '../config/config';
import { LogCodeSender } from '../messages/log-code-sender';
import { MessageSenders } from '../messages/message-senders';
import { OneTimeCodesRepository } from './one-time-codes.repository';
import { OneTimeCodesService } from './one-time-codes.service';
import { CODE_KEY, CODE_SENDER } from './one-time-codes.types';

/**
 * Global: sign-up, login confirmation, recovery and the change of login issue and check codes here. The codes' key
 * is derived from the action log's (AUDIT_CHAIN_KEY, or the one kept in DATA_DIR): one secret to keep, never stored
 * beside the hashes. Codes and notices leave by the configured senders (MessageSenders: SMTP, the SMS gateway, the log sender).
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
    LogCodeSender,
    MessageSenders,
    { provide: CODE_SENDER, useExisting: MessageSenders },
    OneTimeCodesRepository,
    OneTimeCodesService,
  ],
  exports: [OneTimeCodesService],
})
export class OneTimeCodesModule {}
