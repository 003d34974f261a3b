import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsAmount } from '../../common/money-validators';
import { OptionalText } from '../../common/validators';
import { OperationDto } from '../../transactions/dto/transaction.dto';

/** Maximum lengths of the free-text fields (the specification leaves them open). */
export const DESCRIPTION_MAX = 500;
export const CUSTOM_INFORMATION_MAX = 1000;

export class PaymentToolDto {
  @ApiProperty({ enum: ['COIN'] })
  @IsIn(['COIN'])
  type: 'COIN';

  /** Payer coin serial: one of the caller's coins. */
  @ApiProperty({ example: '1000000001' })
  @IsString()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'must be a coin serial (digits)' })
  srcValue: string;

  /** Payee coin serial. */
  @ApiProperty({ example: '1000000002' })
  @IsString()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'must be a coin serial (digits)' })
  destValue: string;
}

/** The free-text fields of every money-moving request (section 4.3: customInformation). */
export class OperationTextDto {
  @ApiPropertyOptional({ maxLength: DESCRIPTION_MAX })
  @OptionalText(DESCRIPTION_MAX)
  @IsString()
  description?: string;

  /** Free text passed by system and business users (release 4.10.0), at most 1000 characters. */
  @ApiPropertyOptional({ maxLength: CUSTOM_INFORMATION_MAX })
  @OptionalText(CUSTOM_INFORMATION_MAX)
  @IsString()
  customInformation?: string;
}

export class TransferRequestDto extends OperationTextDto {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PaymentToolDto)
  paymentTool: PaymentToolDto;

  /** A positive decimal string (or JSON number) with no more decimals than the currency allows. */
  @ApiProperty({ example: '10.50', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  amount: string | number;
}

export class TransferCalculationDto {
  status: 'ok';
  message: string;
  currency: string;
  /** What leaves the payer coin (amount plus commission). */
  @ApiProperty({ example: '10.50' })
  payerAmount: string;
  /** What reaches the payee coin. */
  @ApiProperty({ example: '10.50' })
  payeeAmount: string;
  @ApiProperty({ example: '0.00' })
  commission: string;
}

export class BankTopUpDto extends OperationTextDto {
  /** The coin to credit. */
  @ApiProperty({ example: '1000000001' })
  @IsString()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'must be a coin serial (digits)' })
  coinSerial: string;

  @ApiProperty({ example: '100.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  amount: string | number;

  @ApiPropertyOptional({ maxLength: 34 })
  @IsOptional()
  @IsString()
  @MaxLength(34)
  bankAccountNumber?: string;
}

export class OperationResultDto {
  status: 'ok';
  message: string;
  process: OperationDto;
}
