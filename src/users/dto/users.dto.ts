import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { ROLES } from '../../access/permissions';
import { PageDto, PageRequestDto, SortOrder } from '../../common/paging.dto';
import { IsPassword } from '../../common/validators';
import { ORGANIZATION_TYPES } from '../../organizations/organization.types';

export class CreateUserDto {
  /** 3 to 64 letters, digits and `. _ @ -`; stored lower-cased. */
  @ApiProperty({ example: 'alice' })
  @IsString()
  @Matches(/^[A-Za-z0-9._@-]{3,64}$/, { message: 'must be 3 to 64 letters, digits and . _ @ -' })
  login: string;

  /** 8 to 72 bytes; not one of the most common passwords, not the login. */
  @ApiProperty({ format: 'password' })
  @IsPassword({ loginProperty: 'login' })
  password: string;

  /** Display name, 1 to 200 characters. */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role: (typeof ROLES)[number];

  /**
   * Organization to join. Without it an `individual` or `merchant` gets a new organization of
   * that type, and staff join the operator's `support` organization.
   */
  @IsOptional()
  @IsUUID()
  organizationId?: string;
}

export const USER_STATUSES = ['active', 'on_hold'] as const;
export const USER_SORT_FIELDS = ['createdAt', 'login', 'name', 'status'] as const;

export class UserFilterDto {
  @ApiPropertyOptional({ enum: USER_STATUSES, isArray: true })
  @IsOptional()
  @ArrayMaxSize(10)
  @IsIn(USER_STATUSES, { each: true })
  statuses?: (typeof USER_STATUSES)[number][];

  @ApiPropertyOptional({ enum: ROLES, isArray: true })
  @IsOptional()
  @ArrayMaxSize(20)
  @IsIn(ROLES, { each: true })
  roles?: (typeof ROLES)[number][];

  /** Part of the login, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  login?: string;
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
}

export class UserViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => UserFilterDto)
  filter?: UserFilterDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => UserSortDto)
  sort?: UserSortDto;
}

export class MembershipOrganizationDto {
  id: string;
  @ApiProperty({ enum: ORGANIZATION_TYPES })
  type: string;
  name: string;
}

export class UserMembershipDto {
  id: string;
  @ApiProperty({ enum: ROLES })
  role: string;
  organization: MembershipOrganizationDto;
}

export class UserRecordDto {
  id: string;
  login: string;
  name: string;
  /** `active` or `on_hold`. */
  @ApiProperty({ enum: USER_STATUSES })
  status: string;
  failedAttempts: number;
  passwordChangeRequired: boolean;
  /** When the user was put On Hold; null while active. */
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  heldAt: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
  members: UserMembershipDto[];
}

export class UserResponseDto {
  status: 'ok';
  message: string;
  user: UserRecordDto;
}

export class UserPageDto extends PageDto {
  records: UserRecordDto[];
}
