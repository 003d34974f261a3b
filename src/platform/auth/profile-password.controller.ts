import { Body, Caller, ClientAddress, Principal, Route, Routes } from '../http';
import { AuthService } from './auth.service';
import { CODE_ERRORS } from './code-errors';
import * as dto from './dto/authorization.dto';

/** The family's profile pages change the password here: the rules of `POST /authorization/password`, the session kept. */
@Routes('profiles/my/password', 'profiles')
export class ProfilePasswordController {
  constructor(private readonly auth: AuthService) {}

  /** Changes the caller's password; the presented token stays valid and every other session of the user ends. */
  @Route('PATCH', '', {
    summary: "Change the caller's password from the profile page",
    access: ['PROFILE_OWNER'],
    errors: [
      ['exception.validation', 'a wrong currentUserPassword, an unfit newUserPassword or a confirmPassword that differs'],
      CODE_ERRORS.reused,
      CODE_ERRORS.checksLimited,
    ],
  })
  async updateMyPassword(
    @Caller() caller: Principal,
    @Body() body: dto.ChangeMyPasswordDto,
    @ClientAddress() address: string,
  ): Promise<dto.PasswordChangedResponseDto> {
    await this.auth.changeMyPassword(caller, body, address);
    return { status: 'ok', message: 'Password changed' };
  }
}
