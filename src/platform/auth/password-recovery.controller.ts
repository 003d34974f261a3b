import { Body, ClientAddress, Route, Routes } from '../http';
import { AuthService } from './auth.service';
import { CODE_ERRORS } from './code-errors';
import * as dto from './dto/authorization.dto';

const PUBLIC = { access: 'public', status: 200 } as const;

/** Recovering a forgotten password with a code sent to the login (the family's `entrance` screens). */
@Routes('password/recovery', 'authorization')
export class PasswordRecoveryController {
  constructor(private readonly auth: AuthService) {}

  /** The same answer for an unknown login, and nothing is sent then. */
  @Route('POST', '', { ...PUBLIC, summary: 'Send a password recovery code to the login', errors: [CODE_ERRORS.sendLimited] })
  recoverPassword(@Body() body: dto.LoginDto, @ClientAddress() address: string): Promise<dto.CodeSentResponseDto> {
    return this.auth.recoverPassword(body.login, address);
  }

  /** Revokes every token of the user. A user On Hold or deactivated is never recovered: the answer is a wrong code's. */
  @Route('POST', 'confirm', {
    ...PUBLIC,
    summary: 'Set a new password with the recovery code',
    errors: [CODE_ERRORS.wrong, CODE_ERRORS.reused, CODE_ERRORS.checkLimited],
  })
  async confirmPasswordRecovery(
    @Body() body: dto.PasswordRecoveryConfirmDto,
    @ClientAddress() address: string,
  ): Promise<dto.PasswordRecoveredResponseDto> {
    await this.auth.confirmRecovery(body, address);
    return { status: 'ok', message: 'Password changed; log in with it', action: 'PASSWORD_CHANGED' };
  }
}
