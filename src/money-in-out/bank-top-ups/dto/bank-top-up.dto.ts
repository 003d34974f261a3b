import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { CoinAlias, SerialOrCoin } from '../../../platform/common/request-view.dto';
import { Serial } from '../../../platform/common/validators';
import { Amount } from '../../../platform/common/dto-fields';

export class BankTopUpDto extends OperationTextDto {
  /** The coin to credit. */
  @Serial()
  @SerialOrCoin()
  coinSerial: string;

  @CoinAlias()
  coin?: string;

  @Amount('100.00')
  amount: string | number;

  @ApiPropertyOptional({ maxLength: 34 })
  @IsOptional()
  @IsString()
  @MaxLength(34)
  bankAccountNumber?: string;
}
