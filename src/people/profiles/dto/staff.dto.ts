import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { EnumList, Omittable, UuidList } from '../../../platform/common/validators';
import { PHONE } from '../../../platform/users/dto/users.dto';
import { DOCUMENT_STATUSES, DOCUMENT_TYPES, MediaFileDto } from './media.dto';
import { BUSINESS_TYPES, CONTACT_LOGIN } from './profile.dto';
import { ApiDateTime, ApiEnum, ApiOptionalEnum, ApiUuid, Nested, OmittableLine } from '../../../platform/common/dto-fields';

/** The family's address form: each part optional; the form sends the whole address, so an absent part is cleared. */
export class AddressInputDto {
  /** ISO 3166-1 alpha-2, as the form's country list sends it. */
  @Omittable()
  @Matches(/^[A-Z]{2}$/, { message: 'country must be a two-letter country code (ISO 3166-1 alpha-2)' })
  @ApiPropertyOptional({ example: 'GB', pattern: '^[A-Z]{2}$' })
  country?: string;

  @Omittable()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/, { message: 'zipCode must be 2 to 12 letters, digits, spaces or dashes' })
  @ApiPropertyOptional({ example: 'SW1A 1AA' })
  zipCode?: string;

  @OmittableLine(100)
  city?: string;

  @OmittableLine(200)
  street?: string;

  @OmittableLine(20)
  houseNumber?: string;
}

/** `PATCH /profiles/{userId}/address`: the whole address under `address`. */
export class UpdateAddressDto {
  @Nested(() => AddressInputDto)
  address: AddressInputDto;
}

/** The person who runs the business, as the family's business form sends it (empty fields left out). */
export class BusinessAdministratorDto {
  @OmittableLine(100)
  firstName?: string;

  @OmittableLine(100)
  lastName?: string;

  @Omittable()
  @IsEmail()
  @MaxLength(200)
  @ApiPropertyOptional({ format: 'email' })
  email?: string;

  @Omittable()
  @Matches(PHONE, { message: 'phone must be a phone number: an optional + and 6 to 15 digits' })
  @ApiPropertyOptional({ example: '+37060000000', pattern: PHONE.source })
  phone?: string;
}

/**
 * `PATCH /profiles/{userId}/business`: the business of the user's organization, the whole of it at the top level as
 * the family's form sends it (an absent field is cleared).
 */
export class UpdateBusinessDto {
  /** The company's name, when it differs from the organization's. */
  @OmittableLine(200)
  companyName?: string;

  @Omittable()
  @IsIn(BUSINESS_TYPES)
  @ApiOptionalEnum(BUSINESS_TYPES)
  type?: string;

  /** A VAT number: 3 to 30 letters and digits, starting with the country code. */
  @Omittable()
  @Matches(/^[A-Z]{2}[A-Za-z0-9]{1,28}$/, { message: 'vat must be a VAT number: a country code and 1 to 28 letters or digits' })
  @ApiPropertyOptional({ example: 'GB123456789' })
  vat?: string;

  @Omittable()
  @Nested(() => BusinessAdministratorDto)
  administrator?: BusinessAdministratorDto;
}

/** `PATCH /profiles/{userId}/contact`: the user's new login, an e-mail address or a phone number. */
export class UpdateUserLoginDto {
  /** Kept in lower case. */
  @IsString()
  @MaxLength(64)
  @Matches(CONTACT_LOGIN, { message: 'login must be an e-mail address or a phone number (an optional + and 6 to 15 digits)' })
  @ApiProperty({ example: 'alice@example.com', maxLength: 64 })
  login: string;
}

/** `POST /profiles/{userId}/reset`: the family's client sends `{"fields": [""]}`; nothing in it is needed. */
export class ResetIdentificationDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @ApiPropertyOptional({ type: [String], description: 'Ignored: the whole identification is reset' })
  fields?: string[];
}

export class ProfileDocumentFilterDto {
  /** The organizations whose members' documents to list (the KYC screen sends the user's organization). */
  @UuidList()
  orgIds?: string[];

  @UuidList()
  userIds?: string[];

  @EnumList(DOCUMENT_STATUSES)
  statuses?: string[];

  @EnumList(DOCUMENT_TYPES)
  types?: string[];
}

export class ProfileDocumentSortDto {
  @SortOrder()
  createdAt?: 'asc' | 'desc';

  /** The default: newest change first. */
  @SortOrder()
  updatedAt?: 'asc' | 'desc';
}

export class ProfileDocumentViewDto extends PageRequestDto {
  @Nested(() => ProfileDocumentFilterDto, 'optional')
  filter?: ProfileDocumentFilterDto;

  @Nested(() => ProfileDocumentSortDto, 'optional')
  sort?: ProfileDocumentSortDto;
}

/** An identity document as staff review it: its file in full, whose user and organization it is. */
export class ProfileDocumentRecordDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  userId: string;
  @ApiUuid()
  organizationId: string;
  @ApiEnum(DOCUMENT_TYPES)
  type: string;
  label: string;
  @ApiEnum(DOCUMENT_STATUSES)
  status: string;
  @ApiPropertyOptional()
  documentIdentifier?: string;
  @ApiPropertyOptional({ type: MediaFileDto })
  file?: MediaFileDto;
  @ApiDateTime()
  createdAt: string;
  /** When it was linked or last decided. */
  @ApiDateTime()
  updatedAt: string;
}

export class ProfileDocumentPageDto extends PageDto {
  records: ProfileDocumentRecordDto[];
}

export class ProfileDocumentResponseDto {
  status: 'ok';
  message: string;
  document: ProfileDocumentRecordDto;
}
