import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsAmount } from '../../../platform/common/money-validators';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { CoinAlias, SerialOrCoin } from '../../../platform/common/request-view.dto';
import { Serial } from '../../../platform/common/validators';

export class BankTopUpDto extends OperationTextDto {
  /** The coin to credit. */
  @Serial()
  @SerialOrCoin()
  coinSerial: string;

  @CoinAlias()
  coin?: string;

  @ApiProperty({ example: '100.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  amount: string | number;

  @ApiPropertyOptional({ maxLength: 34 })
  @IsOptional()
  @IsString()
  @MaxLength(34)
  bankAccountNumber?: string;
}
