import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { COUNTRY_CODES } from '../../../platform/common/countries';
import { BIC_PATTERN } from '../../../platform/common/iban';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { stripFormatCharacters } from '../../../platform/common/text';
import { OptionalText } from '../../../platform/common/validators';
import { ApiDateTime, ApiInteger, ApiTextOrNull, ApiUuid } from '../../../platform/common/dto-fields';

const COUNTRIES = [...COUNTRY_CODES];
const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);

/**
 * A bank of the catalog, as `POST /bank-catalog` takes it and every line of an imported file gives it. The texts shown
 * to customers (name, address, city, zip code) are kept without Unicode format characters (a bidi override, a
 * zero-width space: a spreadsheet's export may carry them unseen).
 */
export class CreateBankDto {
  /** The bank's name, 1 to 200 characters. */
  @ApiProperty({ maxLength: 200, example: 'Example Bank AG' })
  @Transform(stripFormatCharacters)
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  bankName: string;

  /** The BIC (ISO 9362): 8 or 11 letters and digits; the catalog's key (a re-import updates the bank by it). */
  @ApiProperty({ example: 'EXAMDEFF', pattern: BIC_PATTERN.source })
  @Transform(upper)
  @IsString()
  @Matches(BIC_PATTERN, { message: 'must be a BIC of 8 or 11 letters and digits' })
  bic: string;

  /** The SWIFT code, when it differs from the BIC (often the same 8 or 11 characters). */
  @ApiPropertyOptional({ example: 'EXAMDEFFXXX', pattern: BIC_PATTERN.source })
  @IsOptional()
  @Transform(upper)
  @IsString()
  @Matches(BIC_PATTERN, { message: 'must be a SWIFT code of 8 or 11 letters and digits' })
  swiftCode?: string;

  @ApiPropertyOptional({ maxLength: 300 })
  @Transform(stripFormatCharacters)
  @OptionalText(300)
  @IsString()
  address?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @Transform(stripFormatCharacters)
  @OptionalText(100)
  @IsString()
  city?: string;

  @ApiPropertyOptional({ maxLength: 20 })
  @Transform(stripFormatCharacters)
  @OptionalText(20)
  @IsString()
  zipCode?: string;

  /** ISO 3166-1 alpha-2 country code. */
  @ApiProperty({ example: 'DE', enum: COUNTRIES })
  @Transform(upper)
  @IsIn(COUNTRIES, { message: 'must be an ISO 3166-1 alpha-2 country code' })
  country: string;

  /** Beyond the columns release 4.10.0 names: the bank's phone number. */
  @ApiPropertyOptional({ maxLength: 30, example: '+49 69 1234567' })
  @IsOptional()
  @IsString()
  @Matches(/^\+?[0-9 ()-]{3,30}$/, { message: 'must be a phone number of digits, spaces, ( ) and -' })
  phoneNumber?: string;

  /** Beyond the columns release 4.10.0 names: the bank's website. */
  @ApiPropertyOptional({ maxLength: 200, example: 'https://bank.example' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) address' })
  website?: string;
}

export class BankDto {
  @ApiUuid()
  id: string;
  bankName: string;
  bic: string;
  @ApiTextOrNull()
  swiftCode: string | null;
  @ApiTextOrNull()
  address: string | null;
  @ApiTextOrNull()
  city: string | null;
  @ApiTextOrNull()
  zipCode: string | null;
  country: string;
  @ApiTextOrNull()
  phoneNumber: string | null;
  @ApiTextOrNull()
  website: string | null;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

export class BankResponseDto {
  status: 'ok';
  message: string;
  bank: BankDto;
}

/** `GET /bank-catalog`: a page of banks by name, optionally of some countries or matching a text. */
export class BankCatalogQueryDto extends PageRequestDto {
  /** ISO 3166-1 alpha-2 country code. */
  @ApiPropertyOptional({ example: 'DE' })
  @IsOptional()
  @Transform(upper)
  @IsIn(COUNTRIES, { message: 'must be an ISO 3166-1 alpha-2 country code' })
  country?: string;

  /** Part of the bank's name or its BIC, case-insensitive. */
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  search?: string;
}

export class BankPageDto extends PageDto {
  records: BankDto[];
}

export class BankImportResultDto {
  status: 'ok';
  message: string;
  /** Data lines read (the header not counted). */
  @ApiInteger()
  lines: number;
  /** Banks added (BICs the catalog did not have). */
  @ApiInteger()
  created: number;
  /** Banks updated (BICs the catalog had). */
  @ApiInteger()
  updated: number;
}

/** The upload of `POST /bank-catalog/import`. */
export class BankImportUploadDto {
  /** The CSV file (UTF-8), at most 1 MB (the operator's BANK_CATALOG_IMPORT_MAX_BYTES): a header line, then one bank per line. */
  @ApiProperty({ type: 'string', format: 'binary' })
  file: unknown;
}
