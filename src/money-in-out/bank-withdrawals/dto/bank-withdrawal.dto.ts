import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, IsUUID, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { BankDetailsDto } from '../../bank-accounts/dto/bank-account.dto';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { CUSTOM_INFORMATION_MAX, OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto } from '../../../platform/common/paging.dto';
import { RequestFilterDto, RequestRecordDto, RequestViewDto } from '../../../platform/common/request-view.dto';
import { EnumList, Serial } from '../../../platform/common/validators';
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

export class BankWithdrawalRecordDto extends RequestRecordDto {
  /** `direct` (paid out at once by staff) or `request` (held until accepted or declined). */
  @ApiProperty({ enum: BANK_WITHDRAWAL_KINDS })
  kind: string;
  /** A request is `pending` (amount and fee held) until `processed` (paid out) or `declined` (hold released). */
  @ApiProperty({ enum: BANK_WITHDRAWAL_STATUSES })
  status: string;
  @ApiProperty({ format: 'uuid' })
  organizationId: string;
  @ApiAmount(100, 'What reaches the bank account')
  amount: JsonDecimal;
  @ApiAmount(1, 'The fee, quoted when the withdrawal was requested')
  commission: JsonDecimal;
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  bankAccountId: string | null;
  bankDetails: BankDetailsRecordDto;
  /** Free text from the system or business user (release 4.10.0). */
  @ApiProperty({ type: String, nullable: true })
  override customInformation: string | null;
  /** The `bank_withdrawal` operation: pending while held, settled in place by the decision. */
  @ApiProperty({ format: 'uuid' })
  operationId: string;
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
  @EnumList(BANK_WITHDRAWAL_STATUSES)
  statuses?: string[];

  @EnumList(BANK_WITHDRAWAL_KINDS)
  kinds?: string[];

  /** Withdrawals whose customInformation contains this text, case-insensitive (release 4.10.0). */
  @ApiPropertyOptional({ maxLength: CUSTOM_INFORMATION_MAX })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(CUSTOM_INFORMATION_MAX)
  customInformation?: string;
}

export class BankWithdrawalViewDto extends RequestViewDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BankWithdrawalFilterDto)
  filter?: BankWithdrawalFilterDto;
}

export class BankWithdrawalPageDto extends PageDto {
  records: BankWithdrawalRecordDto[];
}
