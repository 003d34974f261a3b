import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { BIC_PATTERN, normalizeIban } from '../../../platform/common/iban';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { IsIban, Serial } from '../../../platform/common/validators';

const iban = ({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeIban(value) : value);
const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);

/** Where money is paid out: an IBAN with its holder, and the bank (BIC, name, or a bank of the catalog). */
export class BankDetailsDto {
  /** The IBAN; its ISO 13616 check digits are verified. Spaces are allowed and removed. */
  @ApiProperty({ example: 'DE89370400440532013000' })
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
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  bankId?: string;
}

export class UpdateBankAccountDto extends PartialType(CreateBankAccountDto) {}

export class BankAccountDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  organizationId: string;
  @ApiProperty({ type: String, nullable: true })
  name: string | null;
  iban: string;
  @ApiProperty({ type: String, nullable: true })
  bic: string | null;
  accountHolder: string;
  @ApiProperty({ type: String, nullable: true })
  bankName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  bankId: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
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

export class BankAccountViewDto extends PageRequestDto {}

/** The answer of `DELETE /bank-accounts/{id}`, naming the account removed. */
export class BankAccountDeletedDto {
  status: 'ok';
  message: string;
  @ApiProperty({ format: 'uuid' })
  id: string;
}

/** An account's details as the family's web client reads them (`details.*`). */
export class BankAccountFamilyDetailsDto {
  /** The IBAN (as `iban`): the account's number. */
  bankAccountNumber: string;
  iban: string;
  /** The holder (as `accountHolder`). */
  fullName: string;
  @ApiProperty({ type: String, nullable: true })
  bic: string | null;
  /** The BIC (the family's client shows both). */
  @ApiProperty({ type: String, nullable: true })
  swift: string | null;
  /** The bank's name, else the account's. */
  @ApiProperty({ type: String, nullable: true })
  name: string | null;
  /** The holder's address: not kept, always null. */
  @ApiProperty({ type: String, nullable: true })
  address: string | null;
}

/** One of the caller's bank accounts as the family's client lists them: the account, its `details`, and `status`. */
export class MyBankAccountDto extends BankAccountDto {
  details: BankAccountFamilyDetailsDto;
  /** Accounts need no approval here: always `APPROVED`. */
  @ApiProperty({ enum: ['APPROVED'] })
  status: 'APPROVED';
}

/** Every bank account of the caller's organization (GET /profiles/my/bank-accounts). */
export class MyBankAccountListDto {
  status: 'ok';
  message: string;
  records: MyBankAccountDto[];
}

export class MyBankAccountPageDto extends PageDto {
  records: MyBankAccountDto[];
}

export class MyBankAccountFilterDto {
  /** The accounts a withdrawal from this coin may go to: the coin's organization's, so the coin must be the caller's (else 404). */
  @Serial({ required: false })
  coinSerial?: string;
}

/** The account screen's search: `filter.coinSerial`. */
export class MyBankAccountViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => MyBankAccountFilterDto)
  filter?: MyBankAccountFilterDto;
}
