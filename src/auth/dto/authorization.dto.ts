import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsPassword } from '../../common/validators';

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

export class ContractInfoDto {
  id: string;
  /** One of base, standard, gold, vip. */
  personType: string;
}

export class OrganizationRefDto {
  id: string;
  /** One of individual, merchant, support, cash_desk, system. */
  type: string;
  name: string;
  /** One of none, pending, approved, declined, review_required, not_available. */
  identificationStatus: string;
  contract_info: ContractInfoDto;
}

export class MemberDto {
  /** The role of the user in this membership. */
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
