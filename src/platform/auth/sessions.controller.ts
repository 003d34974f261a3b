import { Caller, ClientAddress, Principal, Route, Routes, UuidParam } from '../http';
import { AuthService } from './auth.service';
import * as dto from './dto/authorization.dto';

/** The caller's own sessions (ASVS 7.4): see every live token and end any of them. */
@Routes('authorization/sessions', 'authorization')
export class SessionsController {
  constructor(private readonly auth: AuthService) {}

  /** Lists the caller's live tokens: id, issued, expires, client address and whether it is the one presented. */
  @Route('GET', '', { summary: "List the caller's live sessions", access: [] })
  async listSessions(@Caller() caller: Principal): Promise<dto.SessionListResponseDto> {
    return { status: 'ok', message: 'OK', records: await this.auth.sessions(caller) };
  }

  /** Ends one of the caller's sessions (the current one too); another user's or an ended one is a 404. */
  @Route('DELETE', ':id', { summary: 'End one of the caller’s sessions', access: [], errors: ['exception.session.not_found'] })
  async endSession(
    @UuidParam('id') id: string,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.SessionEndedResponseDto> {
    await this.auth.endSession(caller, id, address);
    return { status: 'ok', message: 'Session ended', action: 'SESSION_ENDED' };
  }
}
