import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsOptional, IsString, IsUUID, Matches, ValidateNested } from 'class-validator';
import { OperationTextDto } from '../../common/operation-text.dto';
import { IsAfter, IsIsoDateTime, PageDto, PageRequestDto, SortOrder } from '../../common/validators';

export const OPERATION_TYPES = ['transfer', 'bank_top_up', 'coin_closure', 'reversal'] as const;
export const OPERATION_STATUSES = ['completed', 'pending', 'declined', 'reversed'] as const;

export class OperationPartyDto {
  @ApiProperty({ example: '1000000001' })
  serial: string;
  organizationId: string | null;
}

export class LedgerEntryDto {
  id: string;
  @ApiProperty({ example: '1000000001' })
  coinSerial: string;
  /** Signed: negative leaves the coin, positive enters it. */
  @ApiProperty({ example: '-10.00' })
  amount: string;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

/** An operation ("process"): one money movement and its balanced ledger entries. */
export class OperationDto {
  id: string;
  @ApiProperty({ example: 'transfer' })
  type: string;
  @ApiProperty({ example: 'completed' })
  status: string;
  /** The Idempotency-Key the operation was created with, if any. */
  requestIdentifier: string | null;
  requestStatus: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
  description: string | null;
  /** Free text from the system or business user (release 4.10.0). */
  customInformation: string | null;
  @ApiProperty({ example: '10.00' })
  amount: string;
  @ApiProperty({ example: '0.00' })
  commission: string;
  /** Currency code. */
  currency: string;
  from: OperationPartyDto | null;
  to: OperationPartyDto | null;
  /** For a reversal: the operation it reverses. */
  reversalOf: string | null;
  transactions: LedgerEntryDto[];
}

export class OperationResponseDto {
  status: 'ok';
  message: string;
  process: OperationDto;
}

export class TransactionFilterDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  ids?: string[];

  @ApiPropertyOptional({ enum: OPERATION_TYPES, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(OPERATION_TYPES, { each: true })
  types?: string[];

  @ApiPropertyOptional({ enum: OPERATION_STATUSES, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(OPERATION_STATUSES, { each: true })
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

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Matches(/^[1-9][0-9]{0,17}$/, { each: true, message: 'each value must be a coin serial' })
  coinSerials?: string[];

  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  issuerIds?: string[];

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
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
