import { Body, Route, Routes } from '../../platform/http';
import { MessagesViewService } from './messages-view.service';
import * as dto from './dto/messages.dto';

@Routes('messages')
export class MessagesController {
  constructor(private readonly messages: MessagesViewService) {}

  /**
   * The messages outbox, newest first: each one-time code and notice, where it went (e-mail, SMS, the log sender) and how it fared
   * (`failed`: the undeliverable ones, with the server's last answer). Never a message's text or code.
   */
  @Route('POST', 'view', { summary: 'Search the messages sent to users', access: ['MESSAGE_VIEWER'], status: 200 })
  viewMessages(@Body() body: dto.MessageViewDto): Promise<dto.MessagePageDto> {
    return this.messages.view(body);
  }
}
