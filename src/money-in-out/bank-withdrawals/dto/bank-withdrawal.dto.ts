import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsOptional, IsString, IsUUID, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { BankDetailsDto } from '../../bank-accounts/dto/bank-account.dto';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { CUSTOM_INFORMATION_MAX, OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { RequestFilterDto, RequestSortDto } from '../../../platform/common/request-view.dto';
import { Serial } from '../../../platform/common/validators';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';

/** A withdrawal to a bank: from a coin, to one of its organization's bank accounts or to bank details given here (one of the two). */
export class BankWithdrawalDto extends OperationTextDto {
  /** The coin paid out from. */
  @Serial()
  coinSerial: string;

  /** A positive decimal with no more decimals than the currency allows. */
  @ApiProperty({ example: '100.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  amount: string | number;

  /** One of the coin's organization's bank accounts (`/bank-accounts`); or give `bankDetails`. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  bankAccountId?: string;

  /** Where to pay, when not to a saved bank account. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BankDetailsDto)
  bankDetails?: BankDetailsDto;
}

export const BANK_WITHDRAWAL_STATUSES = ['pending', 'processed', 'declined'] as const;
export const BANK_WITHDRAWAL_KINDS = ['direct', 'request'] as const;

export class BankDetailsRecordDto {
  iban: string;
  @ApiProperty({ type: String, nullable: true })
  bic: string | null;
  accountHolder: string;
  @ApiProperty({ type: String, nullable: true })
  bankName: string | null;
}

export class BankWithdrawalRecordDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** `direct` (paid out at once by staff) or `request` (held until accepted or declined). */
  @ApiProperty({ enum: BANK_WITHDRAWAL_KINDS })
  kind: string;
  /** A request is `pending` (amount and fee held) until `processed` (paid out) or `declined` (hold released). */
  @ApiProperty({ enum: BANK_WITHDRAWAL_STATUSES })
  status: string;
  @ApiProperty({ example: '1000000001' })
  coinSerial: string;
  @ApiProperty({ format: 'uuid' })
  organizationId: string;
  @ApiAmount(100, 'What reaches the bank account')
  amount: JsonDecimal;
  @ApiAmount(1, 'The fee, quoted when the withdrawal was requested')
  commission: JsonDecimal;
  @ApiProperty({ example: 'EUR' })
  currency: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  bankAccountId: string | null;
  bankDetails: BankDetailsRecordDto;
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  /** Free text from the system or business user (release 4.10.0). */
  @ApiProperty({ type: String, nullable: true })
  customInformation: string | null;
  @ApiProperty({ type: String, nullable: true })
  declineReason: string | null;
  /** The `bank_withdrawal` operation: pending while held, settled in place by the decision. */
  @ApiProperty({ format: 'uuid' })
  operationId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  createdBy: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  decidedBy: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  decidedAt: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class BankWithdrawalResultDto {
  status: 'ok';
  message: string;
  bankWithdrawal: BankWithdrawalRecordDto;
  /** The `bank_withdrawal` operation as it stands after this request. */
  process: OperationDto;
}

export class BankWithdrawalRecordResultDto {
  status: 'ok';
  message: string;
  bankWithdrawal: BankWithdrawalRecordDto;
}

export class BankWithdrawalFilterDto extends RequestFilterDto {
  @ApiPropertyOptional({ enum: BANK_WITHDRAWAL_STATUSES, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(BANK_WITHDRAWAL_STATUSES, { each: true })
  statuses?: string[];

  @ApiPropertyOptional({ enum: BANK_WITHDRAWAL_KINDS, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(BANK_WITHDRAWAL_KINDS, { each: true })
  kinds?: string[];

  /** Withdrawals whose customInformation contains this text, case-insensitive (release 4.10.0). */
  @ApiPropertyOptional({ maxLength: CUSTOM_INFORMATION_MAX })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(CUSTOM_INFORMATION_MAX)
  customInformation?: string;
}

export class BankWithdrawalViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BankWithdrawalFilterDto)
  filter?: BankWithdrawalFilterDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RequestSortDto)
  sort?: RequestSortDto;
}

export class BankWithdrawalPageDto extends PageDto {
  records: BankWithdrawalRecordDto[];
}
