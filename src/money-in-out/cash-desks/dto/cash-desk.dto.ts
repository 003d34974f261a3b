import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import { CoinDto } from '../../../money-movement/coins/dto/coin.dto';
import type { JsonDecimal, OneTimeSecret } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { FULL_NAME_MAX, OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { ClientCoinDto, RequestFilterDto, RequestRecordDto, RequestViewDto } from '../../../platform/common/request-view.dto';
import { EnumList, Serial, UuidList } from '../../../platform/common/validators';
import { OperationDto, OperationRecordDto } from '../../../platform/ledger/dto/operation.dto';
import { ApiDateTime, ApiEnum, ApiExample, ApiUuid, ApiUuidOrNull, Nested } from '../../../platform/common/dto-fields';

export const DOCUMENT_TYPES = ['passport', 'id_card', 'driving_license', 'residence_permit', 'other'] as const;
export const CASH_DESK_OPERATION_TYPES = ['cash_in', 'cash_out'] as const;
export const CASH_DESK_OPERATION_STATUSES = ['pending', 'processed', 'declined'] as const;
/** A cash-out code: 8 decimal digits, short enough to read out at the desk. */
export const CASH_OUT_CODE = /^[0-9]{8}$/;

// The fields the desk's requests and a customer's share, in the order stacked decorators run (the last first), so that
// a request's errors keep their order; the document states the limits itself (the Swagger plugin reads only a
// property's own decorators).
/** What is paid, as a client sends it: a decimal string or a JSON number. */
const AmountInput = () => applyDecorators(IsAmount(), ApiProperty({ example: '50.00', oneOf: [{ type: 'string' }, { type: 'number' }] }));
/** A person's name, 1 to FULL_NAME_MAX characters. */
const PersonName = () =>
  applyDecorators(
    MaxLength(FULL_NAME_MAX),
    MinLength(1),
    IsString(),
    ApiProperty({ minLength: 1, maxLength: FULL_NAME_MAX, example: 'Alice Liddell' }),
  );

export class CreateCashDeskDto {
  /** The desk's name, 1 to 200 characters. */
  @ApiProperty({ maxLength: 200, example: 'Main street desk' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  /** Issuers whose cash coin the desk opens now (more later with `POST /cash-desks/{id}/coins`). */
  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true })
  issuerIds?: string[];
}

export class OpenCashCoinDto {
  @ApiUuid()
  @IsUUID()
  issuerId: string;
}

export class CashDeskDto {
  @ApiUuid()
  id: string;
  name: string;
  /** The desk's cash coins, one per issuer (shown to staff and to the desk's cashiers; empty for others). */
  coins: CoinDto[];
  @ApiDateTime()
  createdAt: string;
}

export class CashDeskResultDto {
  status: 'ok';
  message: string;
  cashDesk: CashDeskDto;
}

export class CashCoinResultDto {
  status: 'ok';
  message: string;
  coin: CoinDto;
}

export class CashDeskViewFilterDto {
  @UuidList()
  ids?: string[];
}

export class CashDeskViewDto extends PageRequestDto {
  /** Only the desks that hold a cash coin of this coin's issuer (one of the caller's coins), as the family's wallet screen asks. */
  @Serial({ required: false })
  coinSerial?: string;

  @Nested(() => CashDeskViewFilterDto, 'optional')
  filter?: CashDeskViewFilterDto;
}

export class CashDeskPageDto extends PageDto {
  records: CashDeskDto[];
}

/** The identity document the cashier saw. */
export class IdentityDocumentDto {
  @ApiEnum(DOCUMENT_TYPES)
  @IsIn(DOCUMENT_TYPES)
  documentType: string;

  /** 1 to 50 letters, digits, spaces, `-` and `/`. */
  @ApiProperty({ maxLength: 50, example: 'LT1234567' })
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 /-]{0,49}$/, { message: 'must be 1 to 50 letters, digits, spaces, - and /' })
  documentNumber: string;
}

/** A cash desk operation as a cashier enters it for a customer at the desk. */
export class CashDeskOperationRequestDto extends OperationTextDto {
  /** `cash_in`: the customer hands over cash and the desk's cash coin credits their coin; `cash_out`: their coin pays the desk, which hands over cash. */
  @ApiEnum(CASH_DESK_OPERATION_TYPES)
  @IsIn(CASH_DESK_OPERATION_TYPES)
  type: 'cash_in' | 'cash_out';

  /** The customer's coin. */
  @Serial()
  coinSerial: string;

  /** Must not be 0 (specification 2.3 and 8); positive, with no more decimals than the currency allows. */
  @AmountInput()
  amount: string | number;

  /** The customer's full name as on the document, 1 to 255 characters (specification 2.3: bounded). */
  @PersonName()
  fullName: string;

  @IsDefined()
  @Nested(() => IdentityDocumentDto)
  document: IdentityDocumentDto;
}

export class CashDeskOperationRecordDto extends RequestRecordDto {
  @ApiEnum(CASH_DESK_OPERATION_TYPES)
  type: string;
  /** `pending` (held) until `processed` (confirmed by the customer or completed by the desk) or `declined` (released). */
  @ApiEnum(CASH_DESK_OPERATION_STATUSES)
  status: string;
  /** How it was decided: `confirmed` by the customer, `completed` by the desk, or `declined`; null while pending. */
  @ApiProperty({ type: String, enum: ['confirmed', 'completed', 'declined'], nullable: true })
  decision: string | null;
  /** The customer's cash-out code the desk presented for a `cash_out` (`POST …/{id}/authorize`): then, and only then, the desk may complete it. */
  @ApiUuidOrNull()
  cashOutCodeId: string | null;
  @ApiUuid()
  cashDeskId: string;
  @ApiUuid()
  customerOrganizationId: string;
  /** The desk's cash coin. */
  @ApiExample('1000000002')
  deskCoinSerial: string;
  @ApiAmount(50)
  amount: JsonDecimal;
  @ApiAmount(0, 'The fee, quoted when the operation was entered')
  commission: JsonDecimal;
  fullName: string;
  document: IdentityDocumentDto;
  /** The `cash_in` or `cash_out` operation: pending while held, settled in place by the decision. */
  @ApiUuid()
  operationId: string;
}

export class CashDeskOperationResultDto {
  status: 'ok';
  message: string;
  cashDeskOperation: CashDeskOperationRecordDto;
  process: OperationDto;
}

export class CashDeskOperationRecordResultDto {
  status: 'ok';
  message: string;
  cashDeskOperation: CashDeskOperationRecordDto;
}

export class CashDeskOperationFilterDto extends RequestFilterDto {
  @EnumList(CASH_DESK_OPERATION_TYPES)
  types?: string[];

  @EnumList(CASH_DESK_OPERATION_STATUSES)
  statuses?: string[];
}

export class CashDeskOperationViewDto extends RequestViewDto {
  @Nested(() => CashDeskOperationFilterDto, 'optional')
  filter?: CashDeskOperationFilterDto;
}

export class CashDeskOperationPageDto extends PageDto {
  records: CashDeskOperationRecordDto[];
}

/** A customer's one-time consent to a cash-out: for one of their coins and the exact amount the desk will pay out. */
export class CreateCashOutCodeDto {
  /** The customer's own coin the cash-out will debit. */
  @Serial()
  coinSerial: string;

  /** The exact amount the desk will hand over (the fee, if any, comes on top); positive, with no more decimals than the currency allows. */
  @AmountInput()
  amount: string | number;
}

export class CashOutCodeDto {
  @ApiUuid()
  id: string;
  /**
   * The code to read out to the cashier, shown only in this answer (the service keeps its hash). Single use, bound
   * to `coinSerial` and `amount`, valid until `expiresAt`.
   */
  @ApiProperty({ type: String, example: '04918273', pattern: CASH_OUT_CODE.source })
  code: OneTimeSecret;
  @ApiExample('1000000001')
  coinSerial: string;
  @ApiAmount(50)
  amount: JsonDecimal;
  @ApiExample('EUR')
  currency: string;
  @ApiDateTime()
  expiresAt: string;
  @ApiDateTime()
  createdAt: string;
}

export class CashOutCodeResultDto {
  status: 'ok';
  message: string;
  cashOutCode: CashOutCodeDto;
}

/** The code the customer read out, presented by the desk for its pending `cash_out`. */
export class AuthorizeCashOutDto {
  @ApiProperty({ example: '04918273', pattern: CASH_OUT_CODE.source })
  @IsString()
  @Matches(CASH_OUT_CODE, { message: 'must be the 8 digits of a cash-out code' })
  cashOutCode: string;
}

/** A customer's withdrawal at a cash desk, as the family's withdrawal form sends it. */
export class CashDeskWithdrawalRequestDto {
  /** The customer's own coin the cash is paid from. */
  @Serial()
  coin: string;

  /** What the desk hands over (a fee, if any, comes on top); positive, with no more decimals than the currency allows. */
  @AmountInput()
  amount: string | number;

  /** Who collects the cash at the desk, 1 to 255 characters. */
  @PersonName()
  @Matches(/\S/, { message: 'must not be blank' })
  receiverName: string;
}

/** The `cash_desk_redeem` operation of a withdrawal, with what the family's success screen reads. */
export class CashDeskWithdrawalProcessDto extends OperationDto {
  @ApiAmount(50, 'What the desk hands over (the operation’s amount)')
  cashAmount: JsonDecimal;
  @ApiUuid()
  cashDeskId: string;
  /** Who collects the cash. */
  receiverName: string;
  /** The coin paid from, as the family's screens show it. */
  clientCoin: ClientCoinDto;
  /** The withdrawal's operation as the family's records show it (the one the history lists): always one. */
  @ApiProperty({ type: () => OperationRecordDto, isArray: true, minItems: 1, maxItems: 1 })
  transaction: OperationRecordDto[];
}

export class CashDeskWithdrawalResultDto {
  status: 'ok';
  message: string;
  process: CashDeskWithdrawalProcessDto;
}
