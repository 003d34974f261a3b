import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { ROLES } from '../../access/permissions';
import { IsPassword } from '../../common/validators';
import { OrganizationRefDto } from '../../organizations/dto/organization.dto';

export class AuthorizationRequestDto {
  /** The user's login; compared case-insensitively. */
  @ApiProperty({ example: 'admin' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  login: string;

  /** The user's password (at most 72 bytes). */
  @ApiProperty({ example: 'change-me-now', format: 'password' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(72)
  password: string;
}

export class ChangePasswordDto {
  /** The current (or temporary) password. */
  @ApiProperty({ format: 'password' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(72)
  currentPassword: string;

  /** The new password: 8 to 72 bytes, different from the current one. */
  @ApiProperty({ format: 'password' })
  @IsPassword()
  newPassword: string;
}

export class TokenDto {
  /** Opaque bearer token; send as `Authorization: Bearer <token>`. */
  token: string;
  /** When the token stops working (UTC). */
  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}

export class UserRefDto {
  id: string;
  name: string;
}

export class MemberDto {
  /** The role of the user in this membership. */
  @ApiProperty({ enum: ROLES })
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
  /** `TOKEN_CREATED`, or `PASSWORD_CHANGE_REQUIRED` after logging in with a temporary password. */
  @ApiProperty({ enum: ['TOKEN_CREATED', 'PASSWORD_CHANGE_REQUIRED'] })
  action: 'TOKEN_CREATED' | 'PASSWORD_CHANGE_REQUIRED';
  /** Acts as the first membership. */
  authorizationToken: TokenDto;
  members: MemberDto[];
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
  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}
