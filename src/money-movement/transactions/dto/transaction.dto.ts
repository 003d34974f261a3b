import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { AsList, EnumList, IsAfter, IsIsoDateTime, SerialList, UuidList } from '../../../platform/common/validators';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';
import { OPERATION_STATUSES, OPERATION_TYPE_NAMES } from '../../../platform/ledger/operation-types';

export class TransactionFilterDto {
  @UuidList()
  ids?: string[];

  @EnumList(OPERATION_TYPE_NAMES)
  types?: string[];

  @EnumList(OPERATION_STATUSES)
  statuses?: string[];

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

export class TransactionPageDto extends PageDto {
  records: OperationDto[];
}

export class ReverseOperationDto extends OperationTextDto {}
