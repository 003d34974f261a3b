import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { AsList, EnumList, SerialList, UuidList } from '../../../platform/common/validators';
import { OperationAmountDetailsDto, OperationDto, OperationRecordDto } from '../../../platform/ledger/dto/operation.dto';
import { FAMILY_STATUS_NAMES, OPERATION_STATUSES, TYPE_FILTER_NAMES } from '../../../platform/ledger/operation-types';
import { ApiExample, Nested, OptionalDateTime, OptionalDateTimeAfter } from '../../../platform/common/dto-fields';

const STATUS_FILTER_NAMES = [...OPERATION_STATUSES, ...Object.keys(FAMILY_STATUS_NAMES)];

/**
 * A filter of texts: one or a list of at most 100, each at most `maxLength` characters. Listed in the order stacked
 * decorators run (the last first), so that a request's errors keep their order; the document states the limits itself
 * (the Swagger plugin reads only a property's own decorators).
 */
const TextList = (maxLength: number) =>
  applyDecorators(
    MaxLength(maxLength, { each: true }),
    IsString({ each: true }),
    ArrayMaxSize(100),
    IsArray(),
    AsList(),
    IsOptional(),
    ApiPropertyOptional({ type: 'array', maxItems: 100, items: { type: 'string', maxLength } }),
  );

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
  @TextList(255)
  paymentIdentifiers?: string[];

  /** Operations created at or after this instant (ISO 8601). */
  @OptionalDateTime()
  createdAtFrom?: string;

  /** Operations created before this instant; must be later than createdAtFrom. */
  @OptionalDateTimeAfter('createdAtFrom')
  createdAtTo?: string;

  @SerialList()
  coinSerials?: string[];

  @UuidList()
  issuerIds?: string[];

  /** Operations these organizations take part in (staff; for others, within their own). */
  @UuidList()
  orgIds?: string[];

  @TextList(10)
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
  @Nested(() => TransactionFilterDto, 'optional')
  filter?: TransactionFilterDto;

  @Nested(() => TransactionSortDto, 'optional')
  sort?: TransactionSortDto;
}

/** An operation as the history lists it: the kernel's record, its type named in the family's vocabulary. */
export class HistoryRecordDto extends OmitType(OperationRecordDto, ['type'] as const) {
  /** The family's name of the operation's type (FAMILY_TYPE_NAMES: `exchange_transaction`, `bank_redeem`, …). */
  @ApiExample('client_transaction_transfer')
  type: string;
}

/** Operations as the service names them (a point of sale's transactions, …). */
export class TransactionPageDto extends PageDto {
  records: OperationDto[];
}

/** A point of sale's operations, as the family's records (the kernel's: each with what the family's screens read). */
export class OperationRecordPageDto extends PageDto {
  records: OperationRecordDto[];
}

/** Re-exported from the kernel, where the record's amounts are made. */
export { OperationAmountDetailsDto };

/** The history's page: operations in the family's vocabulary. */
export class HistoryPageDto extends PageDto {
  records: HistoryRecordDto[];
}

export class ReverseOperationDto extends OperationTextDto {}
