import { Injectable } from '@nestjs/common';
import { MessagesService } from '../../platform/messages/messages.service';
import { MessagePageDto, MessageViewDto } from './dto/messages.dto';

/** The staff's view of the messages outbox: its rows as the view answers them, never a message's text or code. */
@Injectable()
export class MessagesViewService {
  constructor(private readonly messages: MessagesService) {}

  async view(request: MessageViewDto): Promise<MessagePageDto> {
    const filter = request.filter;
    const page = await this.messages.view(
      { statuses: filter?.statuses, channels: filter?.channels, recipient: filter?.to?.toLowerCase() },
      request,
    );
    return {
      ...page,
      records: page.records.map((m) => ({
        id: m.id,
        channel: m.channel,
        to: m.recipient,
        kind: m.kind,
        template: m.template,
        locale: m.locale,
        status: m.status,
        attempts: m.attempts,
        lastError: m.last_error,
        nextAttemptAt: m.status === 'pending' ? m.next_attempt_at.toISOString() : null,
        lastAttemptAt: m.last_attempt_at?.toISOString() ?? null,
        sentAt: m.sent_at?.toISOString() ?? null,
        createdAt: m.created_at.toISOString(),
      })),
    };
  }
}
