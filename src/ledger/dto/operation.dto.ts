import { ApiProperty } from '@nestjs/swagger';
import type { JsonDecimal } from '../../common/json-decimal';
import { ApiAmount } from '../../common/money-validators';
import { OPERATION_STATUSES, OPERATION_TYPE_NAMES } from '../operation-types';

export class OperationPartyDto {
  @ApiProperty({ example: '1000000001' })
  serial: string;
  organizationId: string | null;
}

export class LedgerEntryDto {
  id: string;
  @ApiProperty({ example: '1000000001' })
  coinSerial: string;
  @ApiAmount(-10, 'Signed: negative leaves the coin, positive enters it')
  amount: JsonDecimal;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

/** An operation ("process"): one money movement and its balanced ledger entries. */
export class OperationDto {
  id: string;
  @ApiProperty({ enum: OPERATION_TYPE_NAMES, example: 'transfer' })
  type: string;
  @ApiProperty({ enum: OPERATION_STATUSES, example: 'completed' })
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
  @ApiAmount(10)
  amount: JsonDecimal;
  @ApiAmount(0)
  commission: JsonDecimal;
  /** Currency code. */
  currency: string;
  from: OperationPartyDto | null;
  to: OperationPartyDto | null;
  /** For a reversal: the operation it reverses. */
  reversalOf: string | null;
  transactions: LedgerEntryDto[];
}

/** The answer of a request that moved money, and of reading one operation. */
export class OperationResultDto {
  status: 'ok';
  message: string;
  process: OperationDto;
}
