import { Global, Logger, Module } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { auditChainKey } from '../config/audit-chain-key';
import { APP_CONFIG, AppConfig } from '../config/config';
import { LogCodeSender } from './log-code-sender';
import { MessageDispatcher } from './message-dispatcher';
import { MessageSenders } from './message-senders';
import { MessagesRepository } from './messages.repository';
import { MESSAGE_KEY, MessagesService } from './messages.service';
import { NoticesRepository } from './notices.repository';
import { NoticesService } from './notices.service';

/**
 * Global: the messages outbox (issue 46). One-time codes and notices (NoticesService: of money movements, logins and
 * account events) are queued here in the transaction that makes
 * them and sent by the dispatcher through the configured senders (SMTP, the SMS gateway, the log sender). The key that
 * seals a code until it is sent is derived from the action log's (AUDIT_CHAIN_KEY), never stored beside the rows.
 */
@Global()
@Module({
  providers: [
    {
      provide: MESSAGE_KEY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        createHmac(
          'sha256',
          auditChainKey(config, (file) => new Logger('Messages').warn(`Generated the service's key in ${file}`)),
        )
          .update('messages')
          .digest(),
    },
    LogCodeSender,
    MessageSenders,
    MessagesRepository,
    MessagesService,
    MessageDispatcher,
    NoticesRepository,
    NoticesService,
  ],
  exports: [MessagesService, NoticesService],
})
export class MessagesModule {}
