import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ROLES } from '../../../platform/access/permissions';
import { PASSWORD_FIELD_MAX_LENGTH } from '../../../platform/auth/dto/authorization.dto';
import { IsPassword } from '../../../platform/common/validators';
import { CONTACT_LOGIN, ProfileDataDto } from '../../profiles/dto/profile.dto';
import { ApiEnum, ApiExample, ApiOptionalEnum } from '../../../platform/common/dto-fields';

const CONTACT_LOGIN_MESSAGE = 'must be an e-mail address or a phone number (an optional + and 6 to 15 digits), at most 64 characters';

class ContactLoginDto {
  /** An e-mail address or a phone number; the code goes there. Kept in lower case. */
  @ApiProperty({ example: 'alice@example.com', maxLength: 64 })
  @IsString()
  @MaxLength(64)
  @Matches(CONTACT_LOGIN, { message: CONTACT_LOGIN_MESSAGE })
  login: string;
}

export class RegistrationDto extends ContactLoginDto {
  /** `individual` (the default) or `merchant`, each when its SELF_REGISTRATION_* setting allows; a staff role never (403). */
  @ApiPropertyOptional({ enum: ROLES, default: 'individual' })
  @IsOptional()
  @IsIn(ROLES)
  role?: (typeof ROLES)[number];

  /** A merchant's legal form, as the family's sign-up screen asks; an individual sends none (or `individual`). */
  @ApiOptionalEnum(['individual', 'corporation'])
  @IsOptional()
  @IsIn(['individual', 'corporation'])
  legalType?: 'individual' | 'corporation';
}

export class LoginCodeDto extends ContactLoginDto {
  /**
   * The code sent to the login. To confirm a change of login asked without the password: the code sent to the current
   * login, then the one sent to the new login, as one text of 12 digits.
   */
  @ApiExample('123456')
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  otp: string;
}

export class RegistrationConfirmDto extends LoginCodeDto {
  /** The password to log in with: 8 to 72 bytes, not one of the most common passwords, not the login. */
  @ApiProperty({ format: 'password' })
  @IsPassword({ loginProperty: 'login' })
  password: string;
}

/** The login the code was sent for, from POST /registration (any text: an unknown one gets the same answer). */
export class ResendDto {
  @ApiExample('alice@example.com')
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  login: string;
}

export class ContactChangeDto extends ContactLoginDto {
  /**
   * The current password: the owner's proof (a wrong one is a 400 counted toward the hold, as at a password change).
   * Without it, a code goes to the current login too, and the confirmation needs both codes; a login that is no e-mail
   * address nor phone number can get no code, so it needs the password.
   */
  @ApiPropertyOptional({ format: 'password' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(PASSWORD_FIELD_MAX_LENGTH)
  password?: string;
}

export class RegisteredResponseDto {
  status: 'ok';
  message: string;
  @ApiEnum(['REGISTERED'])
  action: 'REGISTERED';
}

export class ContactChangedResponseDto {
  status: 'ok';
  message: string;
  /** The caller's profile as GET /profiles/my answers it (`profile`), with the new contact. */
  profile: ProfileDataDto;
}
