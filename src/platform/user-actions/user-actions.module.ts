import { Global, Logger, Module } from '@nestjs/common';
import { join } from 'node:path';
import { AUDIT_CHAIN_KEY_FILE, auditChainKey, generatedByThisProcess } from '../config/audit-chain-key';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ACTION_CHAIN_KEY, ActionChain } from './action-chain';
import { ServiceKeyRepository } from './service-key.repository';
import { verifyServiceKey } from './service-key';
import { UserActionsRepository } from './user-actions.repository';
import { UserActionsService } from './user-actions.service';

@Global()
@Module({
  providers: [
    {
      // The key, once the database has said it is the one it is written with (service-key.ts): an instance with another
      // key refuses to start before it writes anything with it.
      provide: ACTION_CHAIN_KEY,
      inject: [APP_CONFIG, ServiceKeyRepository],
      useFactory: async (config: AppConfig, keys: ServiceKeyRepository) => {
        const logger = new Logger('ActionChain');
        const key = auditChainKey(config);
        const file = join(config.dataDir, AUDIT_CHAIN_KEY_FILE);
        // Whichever module asked for the key first made it: this says so once.
        if (!config.auditChainKey && generatedByThisProcess(file)) {
          logger.warn(
            `AUDIT_CHAIN_KEY is unset: generated the action log's key in ${file}; keep it with the database's backups (without it the log cannot be verified), and give it to every other instance on this database`,
          );
        }
        const source = config.auditChainKey ? ({ variable: true } as const) : { file };
        if (await verifyServiceKey(key, source, keys)) {
          logger.log(
            'Recorded the check value of the service key (AUDIT_CHAIN_KEY) in the database: an instance with another key will refuse to start',
          );
        }
        return key;
      },
    },
    ActionChain,
    ServiceKeyRepository,
    UserActionsRepository,
    UserActionsService,
  ],
  exports: [UserActionsService, ActionChain],
})
export class UserActionsModule {}
