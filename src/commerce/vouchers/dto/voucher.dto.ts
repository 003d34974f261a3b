import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import type { JsonDecimal, OneTimeSecret } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { AsList, IsIsoDateTime, Serial, SERIAL_PATTERN, SerialList, UuidList } from '../../../platform/common/validators';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';

export const VOUCHER_STATUSES = ['pending', 'processed', 'blocked', 'expired'] as const;
/** `pending`: redeemable; `processed`: redeemed; `blocked`: blocked by its creator, money returned; `expired`: past expiresAt, money returned. */
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];

export const PREPAID_NAME_MAX = 100;
/** 128 random bits as 32 hexadecimal characters. */
export const VOUCHER_CODE = /^[0-9a-fA-F]{32}$/;

export class CreateVoucherDto extends OperationTextDto {
  /** The coin that pays for the voucher: one of the caller's organization's client coins. Its organization is the creator. */
  @Serial()
  coinSerial: string;

  /** The voucher's value: a positive decimal with no more decimals than the coin's currency allows. */
  @ApiProperty({ example: '25.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  amount: string | number;

  /** The voucher's name, 1 to 100 characters. Left out: `Voucher <amount> <currency>` (e.g. `Voucher 25.00 EUR`). */
  @ApiPropertyOptional({ example: 'Birthday gift', minLength: 1, maxLength: PREPAID_NAME_MAX })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(PREPAID_NAME_MAX)
  @Matches(/\S/, { message: 'must not be blank' })
  prepaidName?: string;

  /** When the voucher stops being redeemable (ISO 8601 with an offset, in the future); its money then returns to coinSerial. Left out: never. */
  @ApiPropertyOptional({ format: 'date-time', example: '2026-12-31T23:59:59Z' })
  @IsOptional()
  @IsIsoDateTime()
  expiresAt?: string;
}

export class RedeemVoucherDto {
  /** The voucher's code, as shown once at its creation (32 hexadecimal characters, any case). */
  @ApiProperty({ example: '3f2a9c0d5e7b41a8b6c4d2e0f1a3b5c7', pattern: VOUCHER_CODE.source })
  @IsString()
  @Matches(VOUCHER_CODE, { message: 'must be a voucher code: 32 hexadecimal characters' })
  code: string;

  /** The coin to credit: one of the caller's organization's client coins, in the voucher's currency. */
  @Serial()
  coinSerial: string;
}

export class ExpireDueDto {
  /** At most this many vouchers, 1 to 1000 (default 1000). */
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 1000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

/** A voucher as its creator sees it. */
export class VoucherDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** Filled at creation (specification 2.3): as given, or `Voucher <amount> <currency>`. */
  @ApiProperty({ example: 'Voucher 25.00 EUR' })
  prepaidName: string;
  @ApiAmount(25, 'What the voucher credits when redeemed')
  amount: JsonDecimal;
  @ApiProperty({ example: 'EUR' })
  currency: string;
  @ApiProperty({ type: String, nullable: true, example: '€' })
  symbol: string | null;
  @ApiProperty({ enum: VOUCHER_STATUSES })
  status: VoucherStatus;
  /** The creator's coin, which paid and receives the money back when the voucher is blocked or expires. */
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  coinSerial: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expiresAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  redeemedAt: string | null;
  /** The voucher_create operation that paid for it. */
  @ApiProperty({ format: 'uuid' })
  operationId: string;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class VoucherCreatedDto {
  status: 'ok';
  message: string;
  voucher: VoucherDto;
  /**
   * The bearer secret, shown only in this answer: whoever holds it redeems the voucher. The service keeps only its
   * SHA-256; a replay of this request (Idempotent-Replayed) answers null.
   */
  @ApiProperty({ type: String, nullable: true, example: '3f2a9c0d5e7b41a8b6c4d2e0f1a3b5c7', pattern: VOUCHER_CODE.source })
  code: OneTimeSecret | null;
  process: OperationDto;
}

/** What the redeemer learns of a voucher. */
export class RedeemedVoucherDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ example: 'Voucher 25.00 EUR' })
  prepaidName: string;
  @ApiAmount(25)
  amount: JsonDecimal;
  @ApiProperty({ example: 'EUR' })
  currency: string;
  @ApiProperty({ type: String, nullable: true, example: '€' })
  symbol: string | null;
  @ApiProperty({ enum: ['processed'] })
  status: 'processed';
  @ApiProperty({ format: 'date-time' })
  redeemedAt: string;
}

export class VoucherRedeemedDto {
  status: 'ok';
  message: string;
  voucher: RedeemedVoucherDto;
  process: OperationDto;
}

export class VoucherBlockedDto {
  status: 'ok';
  message: string;
  voucher: VoucherDto;
  /** The voucher_refund operation that returned the money to the creator's coin. */
  process: OperationDto;
}

export class ExpiredVouchersDto {
  status: 'ok';
  message: string;
  /** How many vouchers expired now (their money returned to their creators). */
  @ApiProperty({ type: 'integer', minimum: 0 })
  expired: number;
}

export class VoucherFilterDto {
  @ApiPropertyOptional({ type: [String], enum: VOUCHER_STATUSES })
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(4)
  @IsIn(VOUCHER_STATUSES, { each: true })
  statuses?: VoucherStatus[];

  @UuidList()
  ids?: string[];

  /** The creator's coins that paid. */
  @SerialList()
  coinSerials?: string[];
}

export class VoucherSortDto {
  /** The default: newest first. */
  @SortOrder()
  createdAt?: 'asc' | 'desc';
}

export class VoucherViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => VoucherFilterDto)
  filter?: VoucherFilterDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => VoucherSortDto)
  sort?: VoucherSortDto;
}

export class VoucherPageDto extends PageDto {
  records: VoucherDto[];
}
