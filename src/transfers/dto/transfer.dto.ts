import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsAmount } from '../../common/money-validators';
import { OperationTextDto } from '../../common/operation-text.dto';
import { OperationDto } from '../../transactions/dto/transaction.dto';

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
