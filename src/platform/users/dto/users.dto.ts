import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { ROLES } from '../../access/permissions';
import { NamedContractInfoDto } from '../../organizations/dto/organization.dto';
import { PageDto, PageRequestDto, SortOrder } from '../../common/paging.dto';
import { AsList, IsPassword, Omittable, UuidList } from '../../common/validators';
import { IDENTIFICATION_STATUSES, ORGANIZATION_TYPES } from '../../organizations/organization.types';
import {
  ApiDateTime,
  ApiDateTimeOrNull,
  ApiEnum,
  ApiExample,
  ApiOptionalDateTime,
  ApiOptionalEnum,
  ApiTextOrNull,
  ApiUuid,
  Nested,
} from '../../common/dto-fields';

/** A phone number in international form: an optional `+` and 6 to 15 digits. */
export const PHONE = /^\+?[0-9]{6,15}$/;

export class CreateUserDto {
  /** 3 to 64 letters, digits and `. _ @ -`, usually an e-mail address or a phone number; stored lower-cased. */
  @ApiExample('alice@example.com')
  @IsString()
  @Matches(/^[A-Za-z0-9._@+-]{3,64}$/, { message: 'must be 3 to 64 letters, digits and . _ @ + -' })
  login: string;

  /**
   * 8 to 72 bytes; not one of the most common passwords, not the login. Without it the user gets a
   * temporary password, answered once, that must be changed at the first login.
   */
  @ApiPropertyOptional({ format: 'password' })
  @Omittable()
  @IsPassword({ loginProperty: 'login' })
  password?: string;

  /** Display name, 1 to 200 characters; defaults to first and last name, else the login. */
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  firstName?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  lastName?: string;

  /** Defaults to the login when the login is an e-mail address. */
  @ApiPropertyOptional({ format: 'email', maxLength: 254 })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ example: '+37060000000', pattern: PHONE.source })
  @IsOptional()
  @IsString()
  @Matches(PHONE, { message: 'must be a phone number: an optional + and 6 to 15 digits' })
  phoneNumber?: string;

  @ApiEnum(ROLES)
  @IsIn(ROLES)
  role: (typeof ROLES)[number];

  /**
   * Organization to join. Without it an `individual` or `merchant` gets a new organization of
   * that type, and staff join the operator's `support` organization.
   */
  @IsOptional()
  @IsUUID()
  organizationId?: string;

  /** A merchant's legal form, as the family's users screen sends it (`individual` by default); `corporation` only for a merchant. */
  @ApiOptionalEnum(['individual', 'corporation'])
  @IsOptional()
  @IsIn(['individual', 'corporation'])
  legalType?: 'individual' | 'corporation';
}

export const USER_STATUSES = ['active', 'on_hold'] as const;
export const USER_SORT_FIELDS = ['createdAt', 'login', 'name', 'status', 'active'] as const;

export class UserFilterDto {
  @UuidList()
  ids?: string[];

  /** Users in an organization with one of these identification statuses. */
  @ApiPropertyOptional({ enum: IDENTIFICATION_STATUSES, isArray: true })
  @AsList()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsIn(IDENTIFICATION_STATUSES, { each: true })
  identificationStatus?: string[];

  @ApiPropertyOptional({ enum: USER_STATUSES, isArray: true })
  @AsList()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsIn(USER_STATUSES, { each: true })
  statuses?: (typeof USER_STATUSES)[number][];

  @ApiPropertyOptional({ enum: ROLES, isArray: true })
  @AsList()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsIn(ROLES, { each: true })
  roles?: (typeof ROLES)[number][];

  /** Part of the login, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  login?: string;

  /** Part of the name, login, e-mail address or phone number, case-insensitive (the family's search box). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  text?: string;

  /** Part of the e-mail address, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;

  /** Part of the phone number. */
  @IsOptional()
  @IsString()
  @MaxLength(20)
  phone?: string;

  /** True: only users On Hold; false: only users not On Hold. */
  @Omittable()
  @IsBoolean()
  banned?: boolean;

  /** True: only users not deactivated; false: only deactivated users. */
  @Omittable()
  @IsBoolean()
  active?: boolean;

  /** Users with a membership in one of these organizations. */
  @UuidList()
  organizationIds?: string[];
}

export class UserSortDto {
  @SortOrder()
  createdAt?: 'asc' | 'desc';

  @SortOrder()
  login?: 'asc' | 'desc';

  @SortOrder()
  name?: 'asc' | 'desc';

  @SortOrder()
  status?: 'asc' | 'desc';

  /** Deactivated users first (`asc`) or last (`desc`). */
  @SortOrder()
  active?: 'asc' | 'desc';
}

export class UserViewDto extends PageRequestDto {
  @Nested(() => UserFilterDto, 'optional')
  filter?: UserFilterDto;

  @Nested(() => UserSortDto, 'optional')
  sort?: UserSortDto;
}

export class MembershipOrganizationDto {
  id: string;
  @ApiEnum(ORGANIZATION_TYPES)
  type: string;
  name: string;
  /** The organization's identification: what the identification and KYC screens show and decide. */
  @ApiEnum(IDENTIFICATION_STATUSES)
  identificationStatus: string;
  /** The same status under the family's other name for it (the KYC screen's badge). */
  @ApiEnum(IDENTIFICATION_STATUSES)
  organizationStatus: string;
}

export class UserMembershipDto {
  id: string;
  @ApiEnum(ROLES)
  role: string;
  organization: MembershipOrganizationDto;
  /** The contract the membership's organization follows. */
  contract_info: NamedContractInfoDto;
}

/** How to reach a user; an address or number the service does not know is left out. */
export class ContactDto {
  @ApiPropertyOptional({ format: 'email' })
  email?: string;
  emailVerified: boolean;
  @ApiPropertyOptional({ example: '+37060000000' })
  phoneNumber?: string;
  phoneVerified: boolean;
}

export class UserRecordDto {
  @ApiUuid()
  id: string;
  login: string;
  name: string;
  @ApiTextOrNull()
  firstName: string | null;
  @ApiTextOrNull()
  lastName: string | null;
  contact: ContactDto;
  /** `active` or `on_hold`. */
  @ApiEnum(USER_STATUSES)
  status: string;
  /** False once staff deactivated the user (`PATCH /users/{id}` or `DELETE /users/{id}`): they cannot log in. */
  active: boolean;
  /** When the user was deactivated; null while active. */
  @ApiDateTimeOrNull()
  deactivatedAt: string | null;
  /** True while the user is On Hold (`POST /users/{id}/unban` releases them). */
  banned: boolean;
  failedAttempts: number;
  passwordChangeRequired: boolean;
  /** When the user was put On Hold; null while active. */
  @ApiDateTimeOrNull()
  heldAt: string | null;
  /** When a ban ends by itself: always null, since On Hold lasts until staff release the user (`POST /users/{id}/unban`). */
  @ApiDateTimeOrNull()
  banExpiryDate: null;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
  members: UserMembershipDto[];
}

export class UserResponseDto {
  status: 'ok';
  message: string;
  user: UserRecordDto;
}

export class CreatedUserDto extends UserResponseDto {
  /** Only when the request gave no password: shown once; the user must change it at the first login. */
  temporaryPassword?: string;
  /** When that temporary password stops working. */
  @ApiOptionalDateTime()
  temporaryPasswordExpiresAt?: string;
}

export class UserPageDto extends PageDto {
  records: UserRecordDto[];
}

/** The family's activate/deactivate: `{"active": false}` deactivates the user, `{"active": true}` activates them again. */
export class UpdateUserDto {
  @ApiProperty()
  @IsBoolean()
  active: boolean;
}

/** A user activated, deactivated or "deleted" (deactivated: users are never erased). */
export class UserStatusResponseDto extends UserResponseDto {
  /** `USER_ACTIVATED`, `USER_DEACTIVATED`, or `UNCHANGED` when the user already was so. */
  @ApiEnum(['USER_ACTIVATED', 'USER_DEACTIVATED', 'UNCHANGED'])
  action: 'USER_ACTIVATED' | 'USER_DEACTIVATED' | 'UNCHANGED';
}
