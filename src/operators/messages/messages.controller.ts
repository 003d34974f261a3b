import { Body, Route, Routes } from '../../platform/http';
import { MessagesService } from '../../platform/messages/messages.service';
import * as dto from './dto/messages.dto';

@Routes('messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  /**
   * The messages outbox, newest first: each one-time code and notice, where it went (e-mail, SMS, the log sender), and
   * how it fared — `failed` lists the undeliverable ones with the server's last answer. Never a message's text or code.
   */
  @Route('POST', 'view', { summary: 'Search the messages sent to users', access: ['MESSAGE_VIEWER'], status: 200 })
  async viewMessages(@Body() body: dto.MessageViewDto): Promise<dto.MessagePageDto> {
    const page = await this.messages.view(
      { statuses: body.filter?.statuses, channels: body.filter?.channels, recipient: body.filter?.to?.toLowerCase() },
      body,
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
