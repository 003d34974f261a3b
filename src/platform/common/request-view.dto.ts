import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { PageRequestDto, SortOrder } from './paging.dto';
import { IsAfter, IsIsoDateTime, SerialList, UuidList } from './validators';

/** The filter every search of requests (bank top-ups, withdrawals, cash desk operations) shares. */
export class RequestFilterDto {
  @UuidList()
  ids?: string[];

  /** Requests for these coins. */
  @SerialList()
  coinSerials?: string[];

  /** Requests of these organizations (staff; others see their own organization's only). */
  @UuidList()
  orgIds?: string[];

  /** Created at or after this instant (ISO 8601). */
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsIsoDateTime()
  createdFrom?: string;

  /** Created before this instant; must be later than createdFrom. */
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsIsoDateTime()
  @IsAfter('createdFrom')
  createdTo?: string;

  /** Free text, case-insensitive, found in the request's names, bank details, description or customInformation. */
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  text?: string;
}

export class RequestSortDto {
  @SortOrder()
  createdAt?: 'asc' | 'desc';
}

/** A page of a search of requests: each kind of request adds its `filter`. Newest first unless sorted otherwise. */
export class RequestViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RequestSortDto)
  sort?: RequestSortDto;
}

/**
 * What every request record shows (bank top-up requests, bank withdrawals, cash desk operations): the coin, the text
 * its creator gave, who decided and when. Each kind adds its status, amounts, parties and operation.
 */
export class RequestRecordDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ example: '1000000001' })
  coinSerial: string;
  @ApiProperty({ example: 'EUR' })
  currency: string;
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  @ApiProperty({ type: String, nullable: true })
  customInformation: string | null;
  @ApiProperty({ type: String, nullable: true })
  declineReason: string | null;
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

/** A decision that refuses a request. */
export class DeclineDto {
  /** Why, shown to the requester; 1 to 500 characters. */
  @ApiProperty({ maxLength: 500, example: 'The account holder does not match' })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}
