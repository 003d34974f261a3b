import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import type { JsonDecimal, OneTimeSecret } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { CoinIssuerDto } from '../../../money-movement/coins/dto/coin.dto';
import { CalculationDto } from '../../../platform/commissions/dto/calculation.dto';
import { AsList, IsIsoDateTime, Serial, SERIAL_PATTERN, SerialList, UuidList } from '../../../platform/common/validators';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';
import {
  Amount,
  ApiDateTime,
  ApiDateTimeOrNull,
  ApiEnum,
  ApiExample,
  ApiInteger,
  ApiTextOrNull,
  ApiUuid,
  Nested,
  OptionalDateTime,
  OptionalDateTimeAfter,
  stacked,
} from '../../../platform/common/dto-fields';

export const VOUCHER_STATUSES = ['pending', 'processed', 'blocked', 'expired'] as const;
/** `pending`: redeemable; `processed`: redeemed; `blocked`: blocked by its creator, money returned; `expired`: past expiresAt, money returned. */
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];

export const PREPAID_NAME_MAX = 100;
/** 128 random bits as 32 hexadecimal characters. */
export const VOUCHER_CODE = /^[0-9a-fA-F]{32}$/;

/** A voucher's code in a request, as shown once at its creation. */
function VoucherCode(): PropertyDecorator {
  return stacked(
    ApiProperty({ example: '3f2a9c0d5e7b41a8b6c4d2e0f1a3b5c7', pattern: VOUCHER_CODE.source }),
    IsString(),
    Matches(VOUCHER_CODE, { message: 'must be a voucher code: 32 hexadecimal characters' }),
  );
}

export class CreateVoucherDto extends OperationTextDto {
  /** The coin that pays for the voucher: one of the caller's organization's client coins. Its organization is the creator. */
  @Serial()
  coinSerial: string;

  /** The voucher's value: a positive decimal with no more decimals than the coin's currency allows. */
  @Amount('25.00')
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
  @VoucherCode()
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

/** A voucher's serial: 16 digits, not a secret (the code is). */
export const VOUCHER_SERIAL = /^[1-9][0-9]{15}$/;

/** A voucher as its creator sees it. */
export class VoucherDto {
  @ApiUuid()
  id: string;
  /** The number people type to redeem it (`/prepaid-coins/{serial}/…`): 16 random digits, not a secret — the code is. */
  @ApiProperty({ example: '4821630957148823', pattern: VOUCHER_SERIAL.source })
  serial: string;
  /** The same as prepaidName. */
  @ApiExample('Voucher 25.00 EUR')
  name: string;
  /** The issuer whose reserve holds the voucher's money (the issuer of the coin that paid). */
  issuer: CoinIssuerDto;
  /** When it was redeemed (the same as redeemedAt). */
  @ApiDateTimeOrNull()
  activatedAt: string | null;
  /** Filled at creation (specification 2.3): as given, or `Voucher <amount> <currency>`. */
  @ApiExample('Voucher 25.00 EUR')
  prepaidName: string;
  @ApiAmount(25, 'What the voucher credits when redeemed')
  amount: JsonDecimal;
  @ApiExample('EUR')
  currency: string;
  @ApiTextOrNull('€')
  symbol: string | null;
  @ApiEnum(VOUCHER_STATUSES)
  status: VoucherStatus;
  /** The creator's coin, which paid and receives the money back when the voucher is blocked or expires. */
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  coinSerial: string;
  @ApiDateTimeOrNull()
  expiresAt: string | null;
  @ApiDateTimeOrNull()
  redeemedAt: string | null;
  /** The voucher_create operation that paid for it. */
  @ApiUuid()
  operationId: string;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
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
  @ApiUuid()
  id: string;
  @ApiExample('Voucher 25.00 EUR')
  prepaidName: string;
  @ApiAmount(25)
  amount: JsonDecimal;
  @ApiExample('EUR')
  currency: string;
  @ApiTextOrNull('€')
  symbol: string | null;
  @ApiEnum(['processed'])
  status: 'processed';
  @ApiDateTime()
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
  @ApiInteger(0)
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

  /** true: redeemed vouchers only; false: the others. */
  @IsOptional()
  @IsBoolean()
  activated?: boolean;

  /** Created at or after this instant (ISO 8601). */
  @OptionalDateTime()
  createdAtFrom?: string;

  /** Created before this instant; must be later than createdAtFrom. */
  @OptionalDateTimeAfter('createdAtFrom')
  createdAtTo?: string;

  /** Redeemed at or after this instant (ISO 8601). */
  @OptionalDateTime()
  activatedAtFrom?: string;

  /** Redeemed before this instant; must be later than activatedAtFrom. */
  @OptionalDateTimeAfter('activatedAtFrom')
  activatedAtTo?: string;
}

export class VoucherSortDto {
  /** The default: newest first. */
  @SortOrder()
  createdAt?: 'asc' | 'desc';
}

export class VoucherViewDto extends PageRequestDto {
  @Nested(() => VoucherFilterDto, 'optional')
  filter?: VoucherFilterDto;

  @Nested(() => VoucherSortDto, 'optional')
  sort?: VoucherSortDto;
}

export class VoucherPageDto extends PageDto {
  records: VoucherDto[];
}

/** `POST /prepaid-coins` and its calculate: a voucher as the family's client buys it. */
export class CreatePrepaidCoinDto {
  /** The coin that pays (coinSerial of `POST /vouchers`). */
  @Serial()
  srcSerial: string;

  /** The voucher's value (amount of `POST /vouchers`). */
  @Amount('25.00')
  prepaidAmount: string | number;
}

/** The voucher bought, as the family's client reads it: a prepaid coin. */
export class PrepaidCoinDto {
  /** The voucher's serial. */
  @ApiProperty({ example: '4821630957148823', pattern: VOUCHER_SERIAL.source })
  serial: string;
  @ApiExample('Voucher 25.00 EUR')
  name: string;
  @ApiAmount(25, 'What the voucher credits when redeemed')
  amount: JsonDecimal;
  @ApiAmount(25, 'The whole amount: a voucher is redeemed in full')
  availableAmount: JsonDecimal;
  @ApiAmount(0, 'Always 0: nothing of a voucher is held')
  heldAmount: JsonDecimal;
  @ApiAmount(25, 'The whole amount, as availableAmount')
  futureAmount: JsonDecimal;
  @ApiAmount(0, 'Always 0: the service lends nothing')
  creditLimit: JsonDecimal;
  issuer: CoinIssuerDto;
  /** Whether it can still be redeemed. */
  active: boolean;
  @ApiEnum(['prepaid'])
  type: 'prepaid';
  @ApiEnum([false])
  main: false;
}

export class PrepaidCoinCreatedDto {
  status: 'ok';
  message: string;
  coin: PrepaidCoinDto;
  /**
   * The voucher's code, which the client calls its PIN: the bearer secret, shown only in this answer (a replay answers
   * null). 32 hexadecimal characters.
   */
  @ApiProperty({ type: String, nullable: true, example: '3f2a9c0d5e7b41a8b6c4d2e0f1a3b5c7', pattern: VOUCHER_CODE.source })
  pin: OneTimeSecret | null;
  /** The voucher's name (prepaidName). */
  name: string;
  voucher: VoucherDto;
  process: OperationDto;
}

/** `POST /prepaid-coins/{serial}/calculate` and `/activate`: the voucher's PIN (its code) and the coin to credit. */
export class RedeemPrepaidCoinDto {
  /** The voucher's code, shown once at its creation (32 hexadecimal characters, any case). */
  @VoucherCode()
  prepaidPin: string;

  /** The coin to credit: one of the caller's organization's client coins, in the voucher's currency. */
  @Serial()
  destSerial: string;
}

/** `POST /prepaid-coins/calculate` and `/{serial}/calculate`: the price of the flow. */
export class PrepaidCoinCalculationDto extends CalculationDto {}

/** What anyone who may redeem learns of a pending voucher from its serial, before giving its PIN. */
export class PrepaidCoinInfoDto {
  status: 'ok';
  message: string;
  @ApiProperty({ example: '4821630957148823', pattern: VOUCHER_SERIAL.source })
  serial: string;
  @ApiExample('Voucher 25.00 EUR')
  name: string;
  @ApiAmount(25, 'What the voucher credits when redeemed')
  amount: JsonDecimal;
  issuer: CoinIssuerDto;
  @ApiDateTime()
  createdAt: string;
  /** When it was redeemed: always null, since a voucher already redeemed is a 409 here. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  activatedAt: null;
  @ApiDateTimeOrNull()
  expiresAt: string | null;
}

export class PrepaidCoinActivatedDto {
  status: 'ok';
  message: string;
  voucher: RedeemedVoucherDto;
  /** The voucher_redeem operation: its amount is what the coin received. */
  process: OperationDto;
}
