import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, IsUUID, MaxLength, MinLength, ValidateNested } from 'class-validator';
import type { JsonDecimal } from '../../common/json-decimal';
import { ApiAmount } from '../../common/money-validators';
import { PageDto, PageRequestDto, SortOrder } from '../../common/paging.dto';
import { Serial, SerialList, UuidList } from '../../common/validators';
import { CurrencyDto } from '../../currencies/dto/currency.dto';
import { OperationDto } from '../../ledger/dto/operation.dto';

export class CreateCoinDto {
  /** The issuer (and so the currency) of the new coin. */
  @IsUUID()
  issuerId: string;

  @ApiProperty({ example: 'Savings', maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;
}

export class RenameCoinDto {
  @ApiProperty({ example: 'Holidays', maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;
}

export class SetMainCoinDto {
  /** Serial of the coin to make the main one of its currency. */
  @Serial()
  serial: string;
}

export class CloseCoinDto {
  /** Coin that receives the remaining balance; required when the coin is not empty. */
  @Serial({ required: false })
  transferToCoinSerial?: string;
}

export class CoinIssuerDto {
  id: string;
  sn: number;
  currency: CurrencyDto;
}

export class CoinDto {
  /** Numeric serial, as a string. */
  @ApiProperty({ example: '1000000001' })
  serial: string;
  name: string;
  @ApiAmount(125.5, 'The balance')
  amount: JsonDecimal;
  @ApiAmount(100.5, 'The balance less the amount held by pending requests')
  availableAmount: JsonDecimal;
  @ApiAmount(25, 'Reserved by pending requests')
  heldAmount: JsonDecimal;
  issuer: CoinIssuerDto;
  /** `client` for users' coins, `system` for the operator's technical coins. */
  @ApiProperty({ enum: ['client', 'system'] })
  type: string;
  /** The organization's main coin for this currency. */
  main: boolean;
  active: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  closedAt: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class CoinResponseDto {
  status: 'ok';
  message: string;
  coin: CoinDto;
}

export class CoinListDto {
  status: 'ok';
  message: string;
  coins: CoinDto[];
}

export class CloseCoinResponseDto {
  status: 'ok';
  message: string;
  coin: CoinDto;
  /** The operation that moved the remaining balance, if there was any. */
  @ApiProperty({ type: () => OperationDto, nullable: true })
  process: OperationDto | null;
}

export class CoinFilterDto {
  @SerialList()
  serials?: string[];

  @UuidList()
  organizationIds?: string[];

  @UuidList()
  issuerIds?: string[];

  @ApiPropertyOptional({ enum: ['client', 'system'], isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(['client', 'system'], { each: true })
  types?: ('client' | 'system')[];

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class CoinSortDto {
  @SortOrder()
  serial?: 'asc' | 'desc';
}

export class CoinViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CoinFilterDto)
  filter?: CoinFilterDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CoinSortDto)
  sort?: CoinSortDto;
}

export class StaffCoinDto extends CoinDto {
  organizationId: string;
}

export class CoinPageDto extends PageDto {
  records: StaffCoinDto[];
}
