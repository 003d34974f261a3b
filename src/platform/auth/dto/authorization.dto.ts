import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { ROLES } from '../../access/permissions';
import { IsPassword } from '../../common/validators';
import { OrganizationRefDto } from '../../organizations/dto/organization.dto';
import { ApiDateTime, ApiEnum, ApiExample, ApiTextOrNull, ApiUuid } from '../../common/dto-fields';

/** What a password field takes in: far beyond any password, which a longer one could not be (72 bytes at most). */
export const PASSWORD_FIELD_MAX_LENGTH = 1024;

export class AuthorizationRequestDto {
  /** The user's login; compared case-insensitively. */
  @ApiExample('admin')
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  login: string;

  /** The user's password. Passwords are at most 72 bytes: a longer one never matches (it is not cut). */
  @ApiProperty({ example: 'change-me-now', format: 'password' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PASSWORD_FIELD_MAX_LENGTH)
  password: string;
}

export class ChangePasswordDto {
  /**
   * The current (or temporary) password. A wrong one counts as a failed validation: the third in a
   * row puts the user On Hold, like wrong passwords at login.
   */
  @ApiProperty({ format: 'password' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PASSWORD_FIELD_MAX_LENGTH)
  currentPassword: string;

  /** The new password: 8 to 72 bytes, different from the current one, not one of the most common passwords, not the login. */
  @ApiProperty({ format: 'password' })
  @IsPassword()
  newPassword: string;
}

/** `PATCH /profiles/my/password`: the family's names for the same change. */
export class ChangeMyPasswordDto {
  /** The current password; a wrong one counts as a failed validation, like at login. */
  @ApiProperty({ format: 'password' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PASSWORD_FIELD_MAX_LENGTH)
  currentUserPassword: string;

  /** The new password: 8 to 72 bytes, different from the current one, not one of the most common passwords, not the login. */
  @ApiProperty({ format: 'password' })
  @IsPassword()
  newUserPassword: string;

  /** The client's repeat of the new password, when sent: it must match. */
  @ApiPropertyOptional({ format: 'password' })
  @IsOptional()
  @IsString()
  @MaxLength(PASSWORD_FIELD_MAX_LENGTH)
  confirmPassword?: string;
}

export class PasswordChangedResponseDto {
  status: 'ok';
  message: string;
}

export class TokenDto {
  /** Opaque bearer token; send as `Authorization: Bearer <token>`. */
  token: string;
  /** When the token stops working (UTC). */
  @ApiDateTime()
  expiresAt: string;
}

export class UserRefDto {
  id: string;
  name: string;
}

export class MemberDto {
  /** The role of the user in this membership. */
  @ApiEnum(ROLES)
  role: string;
  user: UserRefDto;
  organization: OrganizationRefDto;
  /** Permissions the role grants. */
  permissions: string[];
  /** A token acting as this membership. */
  token: TokenDto;
}

export class AuthorizationResponseDto {
  /** `ok` on success. */
  status: 'ok';
  message: string;
  /**
   * `TOKEN_CREATED`; `PASSWORD_CHANGE_REQUIRED` after logging in with a temporary password; `OTP_SENT` when the login
   * must be confirmed with the code sent to it (POST /authorization/confirm): then no token and no members.
   */
  @ApiEnum(['TOKEN_CREATED', 'PASSWORD_CHANGE_REQUIRED', 'OTP_SENT'])
  action: 'TOKEN_CREATED' | 'PASSWORD_CHANGE_REQUIRED' | 'OTP_SENT';
  /** Acts as the first membership (absent with `OTP_SENT`). */
  @ApiPropertyOptional({ type: () => TokenDto })
  authorizationToken?: TokenDto;
  /** One per membership, each with its token (absent with `OTP_SENT`). */
  @ApiPropertyOptional({ type: () => [MemberDto] })
  members?: MemberDto[];
  /**
   * With `OTP_SENT` only: the challenge this password step opened, a secret (256 random bits). Send it with the code
   * to `POST /authorization/confirm` (and to `POST /authorization/resend-otp`); the code counts only with it, or
   * (LOGIN_CHALLENGE_BY_ADDRESS) from the address that sent the password. It ends when the code sent here expires.
   */
  @ApiPropertyOptional({ example: 'kq3V0mM1b8oA1c2tq0Sxw3hU5w1b4Nf0mJ1l9m3vQ0E' })
  challengeId?: string;
}

export class LogoutResponseDto {
  status: 'ok';
  message: string;
  action: 'TOKEN_REVOKED';
}

export class ReleaseResponseDto {
  status: 'ok';
  message: string;
  /** Shown once; the user must change it at the next login. */
  temporaryPassword: string;
  /** When the temporary password stops working. */
  @ApiDateTime()
  expiresAt: string;
}

export class SessionDto {
  /** The session's id (its token's), for `DELETE /api/v1/authorization/sessions/{id}`; never the token itself. */
  @ApiUuid()
  id: string;
  /** When the token was issued (UTC). */
  @ApiDateTime()
  createdAt: string;
  /** When the token stops working (UTC). */
  @ApiDateTime()
  expiresAt: string;
  /** The client address the token was issued to (null for tokens issued before addresses were kept). */
  @ApiTextOrNull()
  address: string | null;
  /** `password_change` for a token issued for a temporary password. */
  @ApiEnum(['full', 'password_change'])
  scope: 'full' | 'password_change';
  /** True for the token this request presented. */
  current: boolean;
}

export class SessionListResponseDto {
  status: 'ok';
  message: string;
  /** The caller's live sessions, newest first. */
  records: SessionDto[];
}

export class SessionEndedResponseDto {
  status: 'ok';
  message: string;
  action: 'SESSION_ENDED';
}

export class SessionsEndedResponseDto {
  status: 'ok';
  message: string;
  action: 'SESSIONS_ENDED';
  /** How many live sessions were ended. */
  endedSessions: number;
}

/** A login that waits for a one-time code (the family's web client sends only this). */
export class LoginDto {
  /** An e-mail address or a phone number; compared case-insensitively. */
  @ApiExample('alice@example.com')
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  login: string;
}

/** A login and the code sent to it. */
export class LoginCodeDto extends LoginDto {
  /** The code sent to the login. */
  @ApiExample('123456')
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  otp: string;
}

/**
 * The challenge of a confirmed login's password step (`challengeId` in its `OTP_SENT` answer). Optional while
 * LOGIN_CHALLENGE_BY_ADDRESS is on (the default): without it, only a request from the address that sent the password
 * counts, which is how the family's web client (it sends `{login, otp}`) confirms; required when the setting is off.
 */
const CHALLENGE_ID = { example: 'kq3V0mM1b8oA1c2tq0Sxw3hU5w1b4Nf0mJ1l9m3vQ0E', maxLength: 100 };

export class LoginConfirmDto extends LoginCodeDto {
  /** The password step's challenge: the code counts only with it (or from that step's address). */
  @ApiPropertyOptional(CHALLENGE_ID)
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  challengeId?: string;
}

export class LoginResendDto extends LoginDto {
  /** The password step's challenge whose code to send again (without it: the newest passed at this address, if allowed). */
  @ApiPropertyOptional(CHALLENGE_ID)
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  challengeId?: string;
}

export class PasswordRecoveryConfirmDto extends LoginCodeDto {
  /** The new password: 8 to 72 bytes, not one of the most common passwords, not the login, not one of the last 5. */
  @ApiProperty({ format: 'password' })
  @IsPassword({ loginProperty: 'login' })
  newUserPassword: string;
}

/** The same answer whether or not the login exists or a code was really sent (no login is told apart). */
export class CodeSentResponseDto {
  status: 'ok';
  message: string;
  @ApiEnum(['OTP_SENT'])
  action: 'OTP_SENT';
}

/** The password was replaced; every token of the user was revoked. */
export class PasswordRecoveredResponseDto {
  status: 'ok';
  message: string;
  @ApiEnum(['PASSWORD_CHANGED'])
  action: 'PASSWORD_CHANGED';
}
