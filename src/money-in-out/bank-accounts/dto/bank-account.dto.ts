import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import { BIC_PATTERN, normalizeIban } from '../../../platform/common/iban';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { AsList, EnumList, IsIban, Serial } from '../../../platform/common/validators';
import type { BankAccountStatus } from '../bank-accounts.repository';
import {
  ApiDateTime,
  ApiEnum,
  ApiExample,
  ApiOptionalUuid,
  ApiTextOrNull,
  ApiUuid,
  ApiUuidOrNull,
  Nested,
} from '../../../platform/common/dto-fields';

export const BANK_ACCOUNT_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;

const iban = ({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeIban(value) : value);
const upperCase = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);
const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);

/** Where money is paid out: an IBAN with its holder, and the bank (BIC, name, or a bank of the catalog). */
export class BankDetailsDto {
  /** The IBAN; its ISO 13616 check digits are verified. Spaces are allowed and removed. */
  @ApiExample('DE89370400440532013000')
  @Transform(iban)
  @IsIban()
  iban: string;

  /** The bank's BIC (8 or 11 characters); taken from the catalog when `bankId` is given without it. */
  @ApiPropertyOptional({ example: 'COBADEFFXXX', pattern: BIC_PATTERN.source })
  @IsOptional()
  @Transform(upper)
  @IsString()
  @Matches(BIC_PATTERN, { message: 'must be a BIC of 8 or 11 letters and digits' })
  bic?: string;

  /** Whose account it is, as the bank knows them, 1 to 200 characters. */
  @ApiProperty({ maxLength: 200, example: 'Alice Liddell' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  accountHolder: string;

  /** The bank's name, at most 200 characters; taken from the catalog when `bankId` is given without it. */
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  bankName?: string;
}

export class CreateBankAccountDto extends BankDetailsDto {
  /** A name the organization knows the account by, at most 100 characters. */
  @ApiPropertyOptional({ maxLength: 100, example: 'Salary account' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  /** A bank of the catalog (`GET /bank-catalog`). */
  @ApiOptionalUuid()
  @IsOptional()
  @IsUUID()
  bankId?: string;
}

export class UpdateBankAccountDto extends PartialType(CreateBankAccountDto) {}

/** An account's details as the family's web client reads them (`details.*`). */
export class BankAccountFamilyDetailsDto {
  /** The IBAN (as `iban`): the account's number. */
  bankAccountNumber: string;
  iban: string;
  /** The holder (as `accountHolder`). */
  fullName: string;
  @ApiTextOrNull()
  bic: string | null;
  /** The BIC (the family's client shows both). */
  @ApiTextOrNull()
  swift: string | null;
  /** The bank's name, else the account's. */
  @ApiTextOrNull()
  name: string | null;
  /** The holder's address: not kept, always null. */
  @ApiTextOrNull()
  address: string | null;
  /** The account's id (as `id`). */
  @ApiUuid()
  id: string;
  /** The IBAN (as `iban`), the family's other name for the account's number. */
  number: string;
  /** The bank of the catalog (as `bankId`); null when none was chosen. */
  @ApiUuidOrNull()
  bankId: string | null;
}

export class BankAccountDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  organizationId: string;
  /** Who added the account (null for an account kept before this was recorded and whose organization has no member). */
  @ApiUuidOrNull()
  userId: string | null;
  @ApiTextOrNull()
  name: string | null;
  iban: string;
  @ApiTextOrNull()
  bic: string | null;
  accountHolder: string;
  @ApiTextOrNull()
  bankName: string | null;
  @ApiUuidOrNull()
  bankId: string | null;
  /**
   * `APPROVED` accounts take withdrawals. With BANK_ACCOUNTS_REQUIRE_APPROVAL a new account (or one given another IBAN)
   * is `PENDING` until compliance approves it; a `REJECTED` one takes none.
   */
  @ApiEnum(BANK_ACCOUNT_STATUSES)
  status: BankAccountStatus;
  /** The account as the family's web client reads it. */
  details: BankAccountFamilyDetailsDto;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

export class BankAccountResponseDto {
  status: 'ok';
  message: string;
  bankAccount: BankAccountDto;
}

export class BankAccountPageDto extends PageDto {
  records: BankAccountDto[];
}

/** The compliance screen's filters (the family's names); each narrows, text fields match a part. */
export class BankAccountFilterDto {
  /** `PENDING`, `APPROVED`, `REJECTED` (one or a list). */
  @EnumList(BANK_ACCOUNT_STATUSES)
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map(upperCase) : upperCase(value)))
  statuses?: BankAccountStatus[];

  /** Who added the accounts. */
  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @AsList()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  userIds?: string[];

  /** Part of the IBAN (spaces ignored). */
  @ApiPropertyOptional({ maxLength: 34 })
  @IsOptional()
  @Transform(iban)
  @IsString()
  @MaxLength(34)
  iban?: string;

  /** The family's name of the account's number: part of the IBAN, as `iban`. */
  @ApiPropertyOptional({ maxLength: 34 })
  @IsOptional()
  @Transform(iban)
  @IsString()
  @MaxLength(34)
  bankAccountNumber?: string;

  /** Part of the BIC. */
  @ApiPropertyOptional({ maxLength: 11 })
  @IsOptional()
  @Transform(upper)
  @IsString()
  @MaxLength(11)
  bic?: string;

  /** The family's name of the BIC, as `bic`. */
  @ApiPropertyOptional({ maxLength: 11 })
  @IsOptional()
  @Transform(upper)
  @IsString()
  @MaxLength(11)
  swift?: string;

  /** Part of the bank's name, whatever the case. */
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  bankName?: string;
}

/** One key: by the bank's name, the status or when added (the default, newest first); ties newest first. */
export class BankAccountSortDto {
  @SortOrder()
  bankName?: 'asc' | 'desc';

  @SortOrder()
  status?: 'asc' | 'desc';

  @SortOrder()
  createdAt?: 'asc' | 'desc';
}

/** A search of bank accounts: the organization's own, every organization's for BANK_ACCOUNT_APPROVER. */
export class BankAccountViewDto extends PageRequestDto {
  @Nested(() => BankAccountFilterDto, 'optional')
  filter?: BankAccountFilterDto;

  @Nested(() => BankAccountSortDto, 'optional')
  sort?: BankAccountSortDto;
}

/** The answer of `DELETE /bank-accounts/{id}`, naming the account removed. */
export class BankAccountDeletedDto {
  status: 'ok';
  message: string;
  @ApiUuid()
  id: string;
}

/** Every bank account of the caller's organization (GET /profiles/my/bank-accounts). */
export class MyBankAccountListDto {
  status: 'ok';
  message: string;
  records: BankAccountDto[];
}

export class MyBankAccountPageDto extends PageDto {
  records: BankAccountDto[];
}

export class MyBankAccountFilterDto {
  /** The accounts a withdrawal from this coin may go to: the coin's organization's, so the coin must be the caller's (else 404). */
  @Serial({ required: false })
  coinSerial?: string;
}

/** The account screen's search: `filter.coinSerial`. */
export class MyBankAccountViewDto extends PageRequestDto {
  @Nested(() => MyBankAccountFilterDto, 'optional')
  filter?: MyBankAccountFilterDto;
}
