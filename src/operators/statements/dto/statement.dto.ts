import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { IsAfter, IsIsoDateTime, SERIAL_PATTERN } from '../../../platform/common/validators';
import { ApiDateTime, ApiExample, ApiTextOrNull, ApiUuid } from '../../../platform/common/dto-fields';

export class StatementQueryDto {
  /** Start, inclusive: an ISO 8601 date-time with an offset, or a date (its midnight UTC). Default: the coin's first entry. */
  @ApiPropertyOptional({ format: 'date-time', example: '2026-01-01T00:00:00Z' })
  @IsOptional()
  @IsIsoDateTime()
  dateFrom?: string;

  /** End, exclusive, later than dateFrom. Default: now. */
  @ApiPropertyOptional({ format: 'date-time', example: '2026-02-01T00:00:00Z' })
  @IsOptional()
  @IsIsoDateTime()
  @IsAfter('dateFrom')
  dateTo?: string;

  /** `json` (default) or `csv`; both are streamed. */
  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json' })
  @IsOptional()
  @IsIn(['json', 'csv'])
  format?: 'json' | 'csv';
}

export class StatementCounterpartyDto {
  @ApiProperty({ example: '1000000002', pattern: SERIAL_PATTERN.source })
  serial: string;
  @ApiUuid()
  organizationId: string;
}

/** One ledger entry of the coin, with the balance after it. */
export class StatementEntryDto {
  /** The entry's id (increasing: the statement's order). */
  @ApiExample('42')
  id: string;
  @ApiUuid()
  operationId: string;
  @ApiExample('client_transaction_transfer')
  operationType: string;
  @ApiExample('processed')
  operationStatus: string;
  @ApiTextOrNull()
  description: string | null;
  @ApiDateTime()
  createdAt: string;
  @ApiAmount(-10, 'Signed: negative when money left the coin')
  amount: JsonDecimal;
  @ApiAmount(90, 'The balance after this entry')
  balance: JsonDecimal;
  /** The other coin of the entry's leg; null when it has none. */
  @ApiProperty({ type: () => StatementCounterpartyDto, nullable: true })
  counterparty: StatementCounterpartyDto | null;
}

export class StatementDto {
  status: 'ok';
  message: string;
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  serial: string;
  @ApiExample('USD')
  currency: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true, description: 'null: from the first entry' })
  dateFrom: string | null;
  @ApiDateTime()
  dateTo: string;
  @ApiAmount(100, 'The balance before dateFrom')
  openingBalance: JsonDecimal;
  @ApiProperty({ type: () => StatementEntryDto, isArray: true })
  entries: StatementEntryDto[];
  @ApiAmount(90, 'The balance at dateTo: openingBalance plus every entry')
  closingBalance: JsonDecimal;
}
