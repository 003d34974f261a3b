import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { JsonDecimal } from '../../common/json-decimal';
import { ApiAmount } from '../../common/money-validators';
import { SERIAL_PATTERN } from '../../common/validators';
import { ROLES } from '../../access/permissions';
import { OPERATION_STATUSES, OPERATION_TYPE_NAMES } from '../operation-types';

/** The issuer of a coin, with its currency's code and symbol. */
export class IssuerRefDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  symbol: string | null;
}

/** A coin on one side of an operation or a leg. */
export class OperationCoinDto {
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  serial: string;
  issuer: IssuerRefDto;
}

/** The organization on one side of an operation. Contact fields the service does not know are left out, never null. */
export class OperationPartyDto {
  @ApiProperty({ format: 'uuid' })
  organizationId: string;
  fullName: string;
  @ApiPropertyOptional({ format: 'email' })
  email?: string;
  @ApiPropertyOptional({ example: '+37060000000' })
  phoneNumber?: string;
}

/** One leg of an operation: an amount moving from one coin to another of the same currency. */
export class OperationLegDto {
  /** The leg's debit entry. */
  id: string;
  @ApiAmount(10, 'Always positive: it leaves `from` and enters `to`')
  amount: JsonDecimal;
  /** The issuer of the coin the amount leaves. */
  issuer: IssuerRefDto;
  from: OperationCoinDto;
  to: OperationCoinDto;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

/** The user who posted an operation, and the role they acted as. */
export class OperationCreatorDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** Null for an operation posted before roles were kept. */
  @ApiProperty({ type: String, nullable: true, enum: ROLES })
  role: string | null;
}

/** An operation ("process"): one money movement and its legs. */
export class OperationDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ enum: OPERATION_TYPE_NAMES, example: 'client_transaction_transfer' })
  type: string;
  @ApiProperty({ enum: OPERATION_STATUSES, example: 'processed' })
  status: string;
  /** The Idempotency-Key the operation was created with, if any. */
  @ApiProperty({ type: String, nullable: true })
  requestIdentifier: string | null;
  @ApiProperty({ type: String, nullable: true })
  requestStatus: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  /** Free text from the system or business user (release 4.10.0). */
  @ApiProperty({ type: String, nullable: true })
  customInformation: string | null;
  @ApiAmount(10, 'What the payer asked to move')
  amount: JsonDecimal;
  @ApiAmount(0, "The operator's fee")
  commission: JsonDecimal;
  /** Currency code of `amount` and `commission`. */
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ type: () => OperationCoinDto, nullable: true })
  from: OperationCoinDto | null;
  @ApiProperty({ type: () => OperationCoinDto, nullable: true })
  to: OperationCoinDto | null;
  @ApiProperty({ type: () => OperationPartyDto, nullable: true })
  sender: OperationPartyDto | null;
  @ApiProperty({ type: () => OperationPartyDto, nullable: true })
  recipient: OperationPartyDto | null;
  /** For a reversal: the operation it reverses. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  reversalOf: string | null;
  /** Who posted it (a staff member for a top-up, a reversal…; the requester for a request later decided); null for the service's own jobs. */
  @ApiProperty({ type: () => OperationCreatorDto, nullable: true })
  createdBy: OperationCreatorDto | null;
  /** The legs: what moved from which coin to which. */
  transactions: OperationLegDto[];
}

/** The answer of a request that moved money, and of reading one operation. */
export class OperationResultDto {
  status: 'ok';
  message: string;
  process: OperationDto;
}
