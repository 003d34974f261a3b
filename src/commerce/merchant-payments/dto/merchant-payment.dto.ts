import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { NUMERIC_ID_PATTERN, OptionalText } from '../../../platform/common/validators';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';
import { ApiDateTime, ApiEnum, ApiOptionalUuid, ApiTextOrNull, ApiUuid, ApiUuidOrNull, Nested } from '../../../platform/common/dto-fields';

export const PAYER_METHODS = ['coin', 'smart_card', 'voucher'] as const;

/** How the payer pays: a coin serial, a smart card id, or a voucher code (its value must be valid for its method: 400). */
export class PayerDto {
  @ApiEnum(PAYER_METHODS)
  @IsIn(PAYER_METHODS)
  method: 'coin' | 'smart_card' | 'voucher';

  /** coin: the caller's coin serial; smart_card: the caller's card id; voucher: its 32-hex code. */
  @IsString()
  @MaxLength(64)
  value: string;
}

export class PurchaseItemDto {
  /** A product of the merchant (a number). */
  @IsString()
  @Matches(NUMERIC_ID_PATTERN, { message: 'must be a product id (a number)' })
  @ApiProperty({ pattern: NUMERIC_ID_PATTERN.source })
  productId: string;

  @IsInt()
  @Min(1)
  @Max(10_000)
  quantity: number;
}

/** A payment to a merchant (merchantId) or at one of its points of sale (posId): for products (items) or an amount. */
export class CreateMerchantPaymentDto {
  @IsOptional()
  @IsUUID()
  @ApiOptionalUuid()
  merchantId?: string;

  @IsOptional()
  @IsUUID()
  @ApiOptionalUuid()
  posId?: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => PurchaseItemDto)
  @ApiPropertyOptional({ type: [PurchaseItemDto] })
  items?: PurchaseItemDto[];

  @ApiPropertyOptional({ example: '12.50', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsOptional()
  @IsAmount()
  amount?: string | number;

  @Nested(() => PayerDto)
  payer: PayerDto;

  @OptionalText(500)
  @ApiPropertyOptional({ type: String, maxLength: 500 })
  description?: string;
}

export class MerchantPurchaseDto {
  @ApiProperty({ pattern: '^[0-9]+$' })
  id: string;
  @ApiProperty({ type: String, nullable: true, pattern: '^[0-9]+$' })
  productId: string | null;
  name: string;
  quantity: number;
  @ApiAmount(2.5)
  price: JsonDecimal;
  @ApiAmount(5)
  total: JsonDecimal;
}

export class MerchantPaymentDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  merchantId: string;
  @ApiUuidOrNull()
  posId: string | null;
  @ApiEnum(PAYER_METHODS)
  method: string;
  @ApiAmount(12.5)
  amount: JsonDecimal;
  currency: string;
  @ApiTextOrNull()
  description: string | null;
  @ApiUuid()
  operationId: string;
  @ApiDateTime()
  createdAt: string;
}

export class MerchantPaymentResponseDto {
  status: 'ok';
  message: string;
  payment: MerchantPaymentDto;
  purchases: MerchantPurchaseDto[];
  process: OperationDto;
}

export class MerchantPurchaseListDto {
  status: 'ok';
  message: string;
  records: MerchantPurchaseDto[];
}

export class MerchantPaymentViewDto extends PageRequestDto {}

export class MerchantPaymentPageDto extends PageDto {
  records: MerchantPaymentDto[];
}
