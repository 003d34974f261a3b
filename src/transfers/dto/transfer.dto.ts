import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, ValidateNested } from 'class-validator';
import { CalculationDto } from '../../commissions/dto/calculation.dto';
import type { JsonDecimal } from '../../common/json-decimal';
import { ApiAmount, IsAmount } from '../../common/money-validators';
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

export class TransferCalculationDto extends CalculationDto {
  /** The currency's code. */
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiAmount(10.5, 'What leaves the payer coin (amount plus commission)')
  payerAmount: JsonDecimal;
  @ApiAmount(10.5, 'What reaches the payee coin')
  payeeAmount: JsonDecimal;
  @ApiAmount(0)
  commission: JsonDecimal;
}
