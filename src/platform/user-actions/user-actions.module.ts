import { Global, Logger, Module } from '@nestjs/common';
import { auditChainKey } from '../config/audit-chain-key';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ACTION_CHAIN_KEY, ActionChain } from './action-chain';
import { UserActionsRepository } from './user-actions.repository';
import { UserActionsService } from './user-actions.service';

@Global()
@Module({
  providers: [
    {
      provide: ACTION_CHAIN_KEY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        auditChainKey(config, (file) =>
          new Logger('ActionChain').warn(
            `AUDIT_CHAIN_KEY is unset: generated the action log's key in ${file}; keep it with the database's backups (without it the log cannot be verified)`,
          ),
        ),
    },
    ActionChain,
    UserActionsRepository,
    UserActionsService,
  ],
  exports: [UserActionsService, ActionChain],
})
export class UserActionsModule {}
