import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { NUMERIC_ID_PATTERN, Omittable, OptionalText } from '../../../platform/common/validators';
import { Amount, ApiDateTime, ApiTextOrNull, ApiUuid, Nested } from '../../../platform/common/dto-fields';

/** A product id is a number (section 7: anything else in the path is a 400). */
export const PRODUCT_ID_PATTERN = NUMERIC_ID_PATTERN;

export class CreateMerchantProductDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  /** The catalogue's category (free text, listed by GET /merchant-products/categories). */
  @OptionalText(100)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  category?: string | null;

  @OptionalText(1000)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  description?: string | null;

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class UpdateMerchantProductDto {
  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @OptionalText(100)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  category?: string | null;

  @OptionalText(1000)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  description?: string | null;

  @Omittable()
  @IsBoolean()
  active?: boolean;
}

export class MerchantProductPriceDto {
  @ApiProperty({ pattern: '^[0-9]+$' })
  id: string;
  @ApiProperty({ pattern: '^[0-9]+$' })
  productId: string;
  currency: string;
  @ApiAmount(2.5)
  price: JsonDecimal;
  @ApiDateTime()
  createdAt: string;
}

export class MerchantProductDto {
  /** A number, written as a string of digits. */
  @ApiProperty({ pattern: '^[0-9]+$' })
  id: string;
  @ApiUuid()
  merchantId: string;
  name: string;
  @ApiTextOrNull()
  category: string | null;
  @ApiTextOrNull()
  description: string | null;
  active: boolean;
  prices: MerchantProductPriceDto[];
  @ApiDateTime()
  createdAt: string;
}

export class MerchantProductResponseDto {
  status: 'ok';
  message: string;
  product: MerchantProductDto;
}

export class MerchantProductFilterDto {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  category?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class MerchantProductViewDto extends PageRequestDto {
  @Nested(() => MerchantProductFilterDto, 'optional')
  filter?: MerchantProductFilterDto;
}

export class MerchantProductPageDto extends PageDto {
  records: MerchantProductDto[];
}

export class MerchantCategoriesDto {
  status: 'ok';
  message: string;
  categories: string[];
}

export class CreateMerchantProductPriceDto {
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'must be a currency code such as USD' })
  currency: string;

  @Amount('2.50')
  price: string | number;
}

export class MerchantProductPriceResponseDto {
  status: 'ok';
  message: string;
  price: MerchantProductPriceDto;
}

export class MerchantProductPriceListDto {
  status: 'ok';
  message: string;
  records: MerchantProductPriceDto[];
}
