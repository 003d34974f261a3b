import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ROLES } from '../../../platform/access/permissions';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { AsList, OptionalText } from '../../../platform/common/validators';
import { OrganizationRefDto } from '../../../platform/organizations/dto/organization.dto';
import { IDENTIFICATION_STATUSES, ORGANIZATION_TYPES } from '../../../platform/organizations/organization.types';
import { ContactDto } from '../../../platform/users/dto/users.dto';
import { NamePlainDto, ProfileUserDto } from './profile.dto';

/** The person behind a user, with what they may edit themself. */
export class PersonDetailsDto {
  namePlain: NamePlainDto;
  @ApiProperty({ type: String, nullable: true, format: 'date', example: '1990-04-01' })
  birthDate: string | null;
  @ApiProperty({ type: String, nullable: true })
  address: string | null;
}

export class UserProfileDataDto {
  /** The type of the user's organization. */
  @ApiProperty({ enum: ORGANIZATION_TYPES })
  type: string;
  /** The identification status of the user's organization. */
  @ApiProperty({ enum: IDENTIFICATION_STATUSES })
  identificationStatus: string;
  person: PersonDetailsDto;
  contact: ContactDto;
}

/** A user's profile as staff (or the user themself) read it. */
export class UserProfileDto {
  user: ProfileUserDto;
  /** The user's role in `organization`, their first membership. */
  @ApiProperty({ enum: ROLES })
  role: string;
  organization: OrganizationRefDto;
  profile: UserProfileDataDto;
}

export class UserProfileResponseDto {
  status: 'ok';
  message: string;
  profile: UserProfileDto;
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
}

export const IDENTIFICATION_DECISIONS = ['none', 'pending', 'approved', 'declined', 'review_required'] as const;

/** A change of the identification status of the user's organization, with its reason. */
export class ChangeIdentificationDto {
  @IsIn(IDENTIFICATION_DECISIONS)
  @ApiProperty({ enum: IDENTIFICATION_DECISIONS })
  status: string;

  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}

export const RESET_REQUEST_STATUSES = ['pending', 'approved', 'declined'] as const;

export class ResetIdentificationRequestDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  userId: string;
  @ApiProperty({ format: 'uuid' })
  organizationId: string;
  reason: string;
  @ApiProperty({ enum: RESET_REQUEST_STATUSES })
  status: string;
  @ApiProperty({ format: 'uuid' })
  createdBy: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  decidedBy: string | null;
  @ApiProperty({ type: String, nullable: true })
  decisionReason: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  decidedAt: string | null;
}

export class ResetIdentificationRequestResponseDto {
  status: 'ok';
  message: string;
  request: ResetIdentificationRequestDto;
  /** The identification status of the user's organization after the call. */
  @ApiProperty({ enum: IDENTIFICATION_STATUSES })
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
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ResetIdentificationRequestFilterDto)
  filter?: ResetIdentificationRequestFilterDto;
}

export class ResetIdentificationRequestPageDto extends PageDto {
  records: ResetIdentificationRequestDto[];
}
