import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { NameSortDto, PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { Serial, SERIAL_PATTERN, SerialList } from '../../../platform/common/validators';

export const TEMPLATE_NAME_MAX = 100;

/** A transfer to save: what `POST /transfers` would send, under a name. */
export class CreateTransferTemplateDto extends OperationTextDto {
  /** Unique among the caller's templates, whatever its case. */
  @ApiProperty({ example: 'Rent', minLength: 1, maxLength: TEMPLATE_NAME_MAX })
  @IsString()
  @MinLength(1)
  @MaxLength(TEMPLATE_NAME_MAX)
  @Matches(/\S/, { message: 'must not be blank' })
  name: string;

  /** The paying coin: one of the caller's organization's client coins, not closed. */
  @Serial()
  payerCoin: string;

  /** The receiving coin: any client coin of the payer coin's currency, not closed. */
  @Serial()
  payeeCoin: string;

  /** A positive decimal string (or JSON number) with no more decimals than the currency allows. */
  @ApiProperty({ example: '450.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  amount: string | number;
}

/** A saved transfer. Executing it is the client's `POST /transfers` with these values. */
export class TransferTemplateDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ example: 'Rent' })
  name: string;
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  payerCoin: string;
  @ApiProperty({ example: '1000000002', pattern: SERIAL_PATTERN.source })
  payeeCoin: string;
  @ApiAmount(450, 'What the transfer would move')
  amount: JsonDecimal;
  /** The payer coin's currency code. */
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  symbol: string | null;
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  @ApiProperty({ type: String, nullable: true })
  customInformation: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class TransferTemplateResponseDto {
  status: 'ok';
  message: string;
  template: TransferTemplateDto;
}

export class TransferTemplateFilterDto {
  /** Part of the name, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(TEMPLATE_NAME_MAX)
  name?: string;

  @SerialList()
  payerCoins?: string[];

  @SerialList()
  payeeCoins?: string[];
}

export class TransferTemplateSortDto extends NameSortDto {}

export class TransferTemplateViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TransferTemplateFilterDto)
  filter?: TransferTemplateFilterDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TransferTemplateSortDto)
  sort?: TransferTemplateSortDto;
}

export class TransferTemplatePageDto extends PageDto {
  records: TransferTemplateDto[];
}
