import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { AsList, EnumList, IsAfter, IsIsoDateTime, SerialList, UuidList } from '../../../platform/common/validators';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { OperationChildDto, OperationCoinDto, OperationDto } from '../../../platform/ledger/dto/operation.dto';
import { FAMILY_STATUS_NAMES, OPERATION_STATUSES, TYPE_FILTER_NAMES } from '../../../platform/ledger/operation-types';

const STATUS_FILTER_NAMES = [...OPERATION_STATUSES, ...Object.keys(FAMILY_STATUS_NAMES)];

export class TransactionFilterDto {
  @UuidList()
  ids?: string[];

  /**
   * Operation types, by the service's or the family's name (`exchange` or `exchange_transaction`, see
   * FAMILY_TYPE_NAMES); a family type the service has no operations of is accepted and matches nothing.
   */
  @EnumList(TYPE_FILTER_NAMES)
  types?: string[];

  /** Statuses; the family's `rejected` is `declined` and its `approved` is `processed`. */
  @EnumList(STATUS_FILTER_NAMES)
  statuses?: string[];

  /** Operations made with one of these request identifiers (the Idempotency-Key of the request, `requestIdentifier` in answers). */
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  paymentIdentifiers?: string[];

  /** Operations created at or after this instant (ISO 8601). */
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsIsoDateTime()
  createdAtFrom?: string;

  /** Operations created before this instant; must be later than createdAtFrom. */
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsIsoDateTime()
  @IsAfter('createdAtFrom')
  createdAtTo?: string;

  @SerialList()
  coinSerials?: string[];

  @UuidList()
  issuerIds?: string[];

  /** Operations these organizations take part in (staff; for others, within their own). */
  @UuidList()
  orgIds?: string[];

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(10, { each: true })
  currencyCodes?: string[];
}

export class TransactionSortDto {
  @SortOrder()
  createdAt?: 'asc' | 'desc';

  @SortOrder()
  status?: 'asc' | 'desc';

  @SortOrder()
  type?: 'asc' | 'desc';
}

export class TransactionViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TransactionFilterDto)
  filter?: TransactionFilterDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TransactionSortDto)
  sort?: TransactionSortDto;
}

/** Amounts of an operation from each side, as the family's history shows them (in the currency of each side's coin). */
export class OperationAmountDetailsDto {
  @ApiAmount(10.5, 'What left the sender’s coin: the amount and the fee the sender paid')
  senderGrossAmount: JsonDecimal;
  @ApiAmount(10, 'What the sender sent, without the fee')
  senderNetAmount: JsonDecimal;
  @ApiAmount(0.5, 'The fee the sender paid')
  senderFee: JsonDecimal;
  @ApiAmount(10, 'What was sent to the recipient, before the fee the recipient paid')
  recipientGrossAmount: JsonDecimal;
  @ApiAmount(10, 'What the recipient’s coin received')
  recipientNetAmount: JsonDecimal;
  @ApiAmount(0, 'The fee the recipient paid')
  recipientFee: JsonDecimal;
}

/** One side of an exchange (the kernel's), as the family's history lists it under the exchange, with its category. */
export class HistoryChildDto extends OperationChildDto {
  /** The exchange's category (`categoryName` of the record). */
  @ApiProperty({ type: String, nullable: true })
  categoryName: string | null;
}

/** An operation as the history lists it: the operation, named in the family's vocabulary, and what the family's screens read. */
export class HistoryRecordDto extends OmitType(OperationDto, ['type', 'children']) {
  /** The family's name of the operation's type (FAMILY_TYPE_NAMES: `exchange_transaction`, `bank_redeem`, …). */
  @ApiProperty({ example: 'client_transaction_transfer' })
  type: string;
  @ApiProperty({ type: () => OperationAmountDetailsDto, nullable: true, description: 'Null for an operation without both sides' })
  operationAmountDetails: OperationAmountDetailsDto | null;
  /** The customer's coin of the operation: the caller's own where it has one. */
  @ApiProperty({ type: () => OperationCoinDto, nullable: true })
  clientCoin: OperationCoinDto | null;
  /** The caller's category the operation is tagged with (the first by name), and its picture. */
  @ApiProperty({ type: String, nullable: true })
  categoryName: string | null;
  @ApiProperty({ type: String, nullable: true })
  categoryImageLink: string | null;
  /** An exchange's sold and bought sides (the operation's `children`), each with the category; empty for any other operation. */
  @ApiProperty({ type: () => HistoryChildDto, isArray: true })
  children: HistoryChildDto[];
  @ApiProperty({
    type: 'number',
    nullable: true,
    example: 10,
    description: 'The amount of the invoice or merchant payment; null for other operations (an exact decimal as a JSON number)',
  })
  invoiceAmount: JsonDecimal | null;
}

/** Operations as the service names them (a point of sale's transactions, …). */
export class TransactionPageDto extends PageDto {
  records: OperationDto[];
}

/** The history's page: operations in the family's vocabulary. */
export class HistoryPageDto extends PageDto {
  records: HistoryRecordDto[];
}

export class ReverseOperationDto extends OperationTextDto {}
