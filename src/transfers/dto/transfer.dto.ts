import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, ValidateNested } from 'class-validator';
import { IsAmount } from '../../common/money-validators';
import { OperationTextDto } from '../../common/operation-text.dto';
import { Serial } from '../../common/validators';

export class PaymentToolDto {
  @ApiProperty({ enum: ['COIN'] })
  @IsIn(['COIN'])
  type: 'COIN';

  /** Payer coin serial: one of the caller's coins. */
  @Serial()
  srcValue: string;

  /** Payee coin serial. */
  @Serial()
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
