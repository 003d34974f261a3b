import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, IsEmail, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { ROLES } from '../../../platform/access/permissions';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { AsList, IsIsoDateTime, OptionalText } from '../../../platform/common/validators';
import { OrganizationRefDto } from '../../../platform/organizations/dto/organization.dto';
import { IDENTIFICATION_STATUSES, ORGANIZATION_TYPES } from '../../../platform/organizations/organization.types';
import { ContactDto, PHONE } from '../../../platform/users/dto/users.dto';
import { NamePlainDto, ProfileDataDto, ProfileUserDto, SecurityDto } from './profile.dto';
import {
  ApiDateTime,
  ApiDateTimeOrNull,
  ApiEnum,
  ApiTextOrNull,
  ApiUuid,
  ApiUuidOrNull,
  Nested,
} from '../../../platform/common/dto-fields';

/** The person behind a user, with what they may edit themself. */
export class PersonDetailsDto {
  namePlain: NamePlainDto;
  @ApiProperty({ type: String, nullable: true, format: 'date', example: '1990-04-01' })
  birthDate: string | null;
  @ApiTextOrNull()
  address: string | null;
}

export class UserProfileDataDto {
  /** The type of the user's organization. */
  @ApiEnum(ORGANIZATION_TYPES)
  type: string;
  /** The identification status of the user's organization. */
  @ApiEnum(IDENTIFICATION_STATUSES)
  identificationStatus: string;
  person: PersonDetailsDto;
  contact: ContactDto;
}

export class RoleCodeDto {
  @ApiEnum(ROLES)
  code: string;
}

/**
 * A user's profile as staff (or the user themself) read it: the family's fields (type, status, person, contact,
 * address, business, security, role) beside the user, their organization and the profile as this service first shaped it.
 */
export class UserProfileDto extends ProfileDataDto {
  user: ProfileUserDto;
  /** The user's role in `organization`, their first membership, as the family's list of role codes. */
  role: RoleCodeDto[];
  organization: OrganizationRefDto;
  profile: UserProfileDataDto;
}

export class UserProfileResponseDto {
  status: 'ok';
  message: string;
  profile: UserProfileDto;
}

/** The caller's profile after an edit: the same `profile` as `GET /profiles/my` answers. */
export class MyProfileResponseDto {
  status: 'ok';
  message: string;
  profile: ProfileDataDto;
}

/** The fields a user edits in their own profile; null clears one, an absent one stays. */
export class UpdateMyProfileDto {
  @OptionalText(100)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  firstName?: string | null;

  @OptionalText(100)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  lastName?: string | null;

  /** A calendar date, YYYY-MM-DD, not before 1900 and not in the future. */
  @IsOptional()
  @Matches(/^(19|20)\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: 'birthDate must be a date YYYY-MM-DD' })
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date', example: '1990-04-01' })
  birthDate?: string | null;

  @OptionalText(500)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  address?: string | null;

  /**
   * The language of the messages finapi sends the user (codes and notices), a language tag: `de`, `en-GB`… One
   * without texts of its own (only `en` and `de` have them) reads English; null goes back to English.
   */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'locale must be a language tag such as de or en-GB' })
  @MaxLength(35)
  @ApiPropertyOptional({ type: String, nullable: true, example: 'de', maxLength: 35 })
  locale?: string | null;
}

/** Names as the family's profile form sends them: first and last required, a middle name optional (null clears it). */
export class NamePlainInputDto {
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  first: string;

  @IsString()
  @MinLength(1)
  @MaxLength(100)
  last: string;

  @OptionalText(100)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  middle?: string | null;
}

export class NameIntlInputDto {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  first?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  last?: string;

  @OptionalText(100)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  middle?: string | null;
}

/** The person fields a user edits themself; null clears one, an absent one stays. */
export class PersonInputDto {
  @Nested(() => NamePlainInputDto, 'optional')
  namePlain?: NamePlainInputDto;

  /** The client sends its names twice; this service keeps one spelling, so these are checked like namePlain and not kept apart. */
  @Nested(() => NameIntlInputDto, 'optional')
  nameIntl?: NameIntlInputDto;

  /** The person's own e-mail, shown on their profile; the login's contact changes only with a code (POST /profiles/my/contact). */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsEmail()
  @MaxLength(200)
  @ApiPropertyOptional({ type: String, nullable: true, format: 'email' })
  email?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Matches(PHONE, { message: 'must be a phone number: an optional + and 6 to 15 digits' })
  @ApiPropertyOptional({ type: String, nullable: true, example: '+37060000000', pattern: PHONE.source })
  phoneNumber?: string | null;

  /**
   * A date (YYYY-MM-DD), or the date-time a date picker sends for local midnight of the picked day: it is taken as
   * the day whose UTC midnight is nearest (right for every offset from -11:59 to +12:00). Not in the future, not before 1900.
   */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIsoDateTime()
  @ApiPropertyOptional({ type: String, nullable: true, example: '1990-04-01' })
  dateOfBirth?: string | null;

  @OptionalText(500)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  description?: string | null;
}

/** `PATCH /profiles/my/person`: the family's body, the person under `person`. */
export class UpdateMyPersonDto {
  @Nested(() => PersonInputDto)
  person: PersonInputDto;
}

/** `PATCH /profiles/my/security-settings`: the whole settings under `security`. */
export class UpdateMySecurityDto {
  @Nested(() => SecurityDto)
  security: SecurityDto;
}

/**
 * The caller's own settings (`PATCH /profiles/my/security-settings`): the family's form sends `security` alone. Turning
 * two-step login off takes `otp` too, the code the same request without it sent to the login.
 */
export class UpdateMySecuritySettingsDto extends UpdateMySecurityDto {
  /** The `two_factor_off` code sent to the caller's login, to turn two-step login off. */
  @IsOptional()
  @IsString()
  @Matches(/^\d{6}$/, { message: 'must be the 6-digit code sent to your login' })
  otp?: string;
}

export const IDENTIFICATION_DECISIONS = ['none', 'pending', 'approved', 'declined', 'review_required'] as const;

/** A change of the identification status of the user's organization, with its reason. */
export class ChangeIdentificationDto {
  @IsIn(IDENTIFICATION_DECISIONS)
  @ApiEnum(IDENTIFICATION_DECISIONS)
  status: string;

  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}

export const RESET_REQUEST_STATUSES = ['pending', 'approved', 'declined'] as const;

export class ResetIdentificationRequestDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  userId: string;
  @ApiUuid()
  organizationId: string;
  reason: string;
  @ApiEnum(RESET_REQUEST_STATUSES)
  status: string;
  @ApiUuid()
  createdBy: string;
  @ApiUuidOrNull()
  decidedBy: string | null;
  @ApiTextOrNull()
  decisionReason: string | null;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTimeOrNull()
  decidedAt: string | null;
}

export class ResetIdentificationRequestResponseDto {
  status: 'ok';
  message: string;
  request: ResetIdentificationRequestDto;
  /** The identification status of the user's organization after the call. */
  @ApiEnum(IDENTIFICATION_STATUSES)
  identificationStatus: string;
}

export class CreateResetIdentificationRequestDto {
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}

export class DeclineResetIdentificationRequestDto {
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}

export class ResetIdentificationRequestFilterDto {
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(3)
  @IsIn(RESET_REQUEST_STATUSES, { each: true })
  @ApiPropertyOptional({ type: [String], enum: RESET_REQUEST_STATUSES })
  statuses?: string[];
}

export class ResetIdentificationRequestViewDto extends PageRequestDto {
  @Nested(() => ResetIdentificationRequestFilterDto, 'optional')
  filter?: ResetIdentificationRequestFilterDto;
}

export class ResetIdentificationRequestPageDto extends PageDto {
  records: ResetIdentificationRequestDto[];
}
