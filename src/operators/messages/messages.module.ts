import { Module } from '@nestjs/common';
import { MessagesController } from './messages.controller';
import { MessagesViewService } from './messages-view.service';

/** The staff's view of the messages outbox (issue 46): the outbox itself is the platform's (MessagesModule, global). */
@Module({ controllers: [MessagesController], providers: [MessagesViewService] })
export class MessagesViewModule {}
