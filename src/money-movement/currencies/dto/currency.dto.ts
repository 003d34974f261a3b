import { ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsFraction } from '../../../platform/common/money-validators';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { AsList } from '../../../platform/common/validators';
import { ApiExample, Description, Name, Nested, OptionalFlag } from '../../../platform/common/dto-fields';

export class CreateCurrencyDto {
  /** Letter code, e.g. `USD` (2 to 10 capitals or digits, starting with a letter). */
  @ApiExample('USD')
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'must be 2 to 10 capital letters or digits, starting with a letter' })
  code: string;

  /** ISO 4217 numeric code, e.g. `840`. */
  @ApiPropertyOptional({ example: '840' })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{3}$/, { message: 'must be three digits' })
  digitalCode?: string;

  @ApiPropertyOptional({ example: '$', maxLength: 8 })
  @IsOptional()
  @IsString()
  @MaxLength(8)
  symbol?: string;

  @Name(100, 'US dollar')
  name: string;

  @Description(500)
  description?: string;

  /**
   * Minor units per major unit: a power of ten from 1 to 10^18 (100 for cents). The number of
   * decimals an amount may have follows from it. Default 100.
   */
  @ApiPropertyOptional({ example: 100, default: 100, oneOf: [{ type: 'integer' }, { type: 'string' }] })
  @IsOptional()
  @IsFraction()
  fraction?: number | string;

  @OptionalFlag(true)
  active?: boolean;
}

export class UpdateCurrencyDto extends PartialType(
  PickType(CreateCurrencyDto, ['digitalCode', 'symbol', 'name', 'description', 'fraction', 'active'] as const),
) {}

export class CurrencyDto {
  id: string;
  code: string;
  digitalCode: string | null;
  symbol: string | null;
  name: string;
  description: string | null;
  /** Minor units per major unit (a power of ten). */
  @ApiExample(100)
  fraction: number;
  active: boolean;
}

export class CurrencyResponseDto {
  status: 'ok';
  message: string;
  currency: CurrencyDto;
}

export class CurrencyListDto {
  status: 'ok';
  message: string;
  currencies: CurrencyDto[];
}

export class CurrencyFilterDto {
  @ApiPropertyOptional({ type: [String] })
  @AsList()
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(10, { each: true })
  codes?: string[];

  @IsOptional()
  @IsBoolean()
  active?: boolean;

  /** Part of the name, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;
}

export class CurrencySortDto {
  @SortOrder()
  code?: 'asc' | 'desc';

  @SortOrder()
  name?: 'asc' | 'desc';
}

export class CurrencyViewDto extends PageRequestDto {
  @Nested(() => CurrencyFilterDto, 'optional')
  filter?: CurrencyFilterDto;

  @Nested(() => CurrencySortDto, 'optional')
  sort?: CurrencySortDto;
}

export class CurrencyPageDto extends PageDto {
  records: CurrencyDto[];
}
