import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { Serial, SERIAL_PATTERN } from '../../../platform/common/validators';
import { PHONE } from '../../../platform/users/dto/users.dto';
import { ApiDateTime, ApiTextOrNull, ApiUuid, Nested } from '../../../platform/common/dto-fields';

export class ContactRecordDto {
  @ApiUuid()
  id: string;
  name: string;
  @ApiTextOrNull('+37060000000')
  phoneNumber: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'email' })
  email: string | null;
  @ApiProperty({ type: String, nullable: true, pattern: SERIAL_PATTERN.source })
  coinSerial: string | null;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

/** A contact: a name and at least one of a phone number, an e-mail address or a coin (else a 400). */
export class CreateContactDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ example: '+37060000000', pattern: PHONE.source })
  @IsOptional()
  @IsString()
  @Matches(PHONE, { message: 'must be a phone number: an optional + and 6 to 15 digits' })
  phoneNumber?: string;

  @ApiPropertyOptional({ format: 'email', maxLength: 254 })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;

  /** A client coin to pay the contact to. */
  @Serial({ required: false })
  coinSerial?: string;
}

export class CreateContactsDto {
  /** 1 to 100 contacts; those whose phone number or e-mail is already in the book (or earlier in the list) are skipped. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => CreateContactDto)
  @ApiProperty({ type: [CreateContactDto] })
  contacts: CreateContactDto[];
}

export class UpdateContactDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '+37060000000', pattern: PHONE.source })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @Matches(PHONE, { message: 'must be a phone number: an optional + and 6 to 15 digits' })
  phoneNumber?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'email', maxLength: 254 })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsEmail()
  @MaxLength(254)
  email?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, pattern: SERIAL_PATTERN.source })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @Matches(SERIAL_PATTERN, { message: 'must be a coin serial' })
  coinSerial?: string | null;
}

export class ContactFilterDto {
  /** Contacts whose name, phone number or e-mail contains this text (case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  text?: string;
}

export class ContactViewDto extends PageRequestDto {
  @Nested(() => ContactFilterDto, 'optional')
  filter?: ContactFilterDto;
}

export class ContactResponseDto {
  status: 'ok';
  message: string;
  contact: ContactRecordDto;
}

/**
 * A contact as the family's web client lists them: `nickname` is the contact's name. The family splits a contact's name
 * into first and last; finapi keeps it whole, so `firstName` carries all of it and `lastName` is null — the client's
 * payee list shows `firstName lastName`, the name as saved.
 */
export class ContactBookEntryDto extends ContactRecordDto {
  /** The contact's name (as `name`), the family's field. */
  nickname: string;
  /** The contact's name, whole (as `name`). */
  firstName: string;
  /** Always null: finapi keeps a contact's name whole, in `firstName`. */
  @ApiTextOrNull()
  lastName: string | null;
  /** The user whose book it is: the caller. */
  @ApiUuid()
  ownerId: string;
}

/** Every contact of the caller (GET /contact-book/contact), by name. */
export class ContactBookDto {
  status: 'ok';
  message: string;
  /** At most 10,000, by name; `truncated` is true when the book holds more. */
  contacts: ContactBookEntryDto[];
  truncated: boolean;
}

export class ContactListResponseDto {
  status: 'ok';
  message: string;
  /** Only the contacts this call created. */
  records: ContactRecordDto[];
}

export class ContactPageDto extends PageDto {
  records: ContactRecordDto[];
}

export class ContactCoinQueryDto {
  /** The currency code of the coin to pay the contact in. */
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'must be a currency code such as USD' })
  currency: string;
}

export class ContactCoinResponseDto {
  status: 'ok';
  message: string;
  @ApiProperty({ pattern: SERIAL_PATTERN.source })
  coinSerial: string;
}
