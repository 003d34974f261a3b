import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { SortOrder } from './paging.dto';
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

/** A decision that refuses a request. */
export class DeclineDto {
  /** Why, shown to the requester; 1 to 500 characters. */
  @ApiProperty({ maxLength: 500, example: 'The account holder does not match' })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}
