import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { AsList, IsAfter, IsIsoDateTime, OptionalText, Serial } from '../../../platform/common/validators';
import { CalculationDto } from '../../../platform/commissions/dto/calculation.dto';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';

export const INVOICE_STATUSES = ['initiated', 'pending', 'paid', 'declined', 'expired'] as const;

export class InvoiceItemDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @IsInt()
  @Min(1)
  @Max(1_000_000)
  quantity: number;

  /** The unit price, with the currency's decimals. */
  @ApiProperty({ example: '2.50', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  price: string | number;
}

/** What an invoice (or a template's draft) holds. */
export class InvoiceDraftDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  /** The issuer's coin the payment goes to (one of the caller's organization's coins). */
  @Serial({ required: false })
  recipientCoin?: string;

  /** The total; with items, it must be their sum. */
  @ApiPropertyOptional({ example: '25.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsOptional()
  @IsAmount()
  amount?: string | number;

  /** Whom the invoice is for: an e-mail address or a phone number, as the issuer knows them. */
  @OptionalText(254)
  @ApiPropertyOptional({ type: String, maxLength: 254 })
  payerContact?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => InvoiceItemDto)
  @ApiPropertyOptional({ type: [InvoiceItemDto] })
  items?: InvoiceItemDto[];

  /** Anything the issuer wants back with the invoice (an order number). */
  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;
}

export class CreateInvoiceDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  /** The issuer's coin the payment goes to (one of the caller's organization's coins). */
  @Serial()
  recipientCoin: string;

  /** The total; with items, it must be their sum. */
  @ApiProperty({ example: '25.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  amount: string | number;

  /** Whom the invoice is for: an e-mail address or a phone number, as the issuer knows them. */
  @OptionalText(254)
  @ApiPropertyOptional({ type: String, maxLength: 254 })
  payerContact?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => InvoiceItemDto)
  @ApiPropertyOptional({ type: [InvoiceItemDto] })
  items?: InvoiceItemDto[];

  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;

  /** After this moment the invoice cannot be paid (409) and becomes `expired`. */
  @IsOptional()
  @IsIsoDateTime()
  @ApiPropertyOptional({ format: 'date-time' })
  expiresAt?: string;
}

export class InvoiceItemAnswerDto {
  name: string;
  quantity: number;
  @ApiAmount(2.5)
  price: JsonDecimal;
}

export class InvoiceDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  organizationId: string;
  name: string;
  recipientCoin: string;
  /** The issuer of the recipient coin's currency: with `amount`, the invoice's total price. */
  @ApiProperty({ format: 'uuid' })
  issuerId: string;
  currency: string;
  @ApiAmount(25)
  amount: JsonDecimal;
  @ApiProperty({ type: String, nullable: true })
  payerContact: string | null;
  items: InvoiceItemAnswerDto[];
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true })
  data: Record<string, unknown> | null;
  /** initiated (issued) → pending (being paid) → paid | declined (withdrawn by its issuer) | expired. */
  @ApiProperty({ enum: INVOICE_STATUSES })
  status: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  expiresAt: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  operationId: string | null;
  @ApiProperty({ type: String, nullable: true })
  paidByCoin: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  templateId: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  paidAt: string | null;
}

export class InvoiceResponseDto {
  status: 'ok';
  message: string;
  invoice: InvoiceDto;
}

export class InvoicePaymentResponseDto {
  status: 'ok';
  message: string;
  invoice: InvoiceDto;
  process: OperationDto;
}

/** Search by amount is by issuer and amount together (section 2.3): both, or neither. */
export class TotalPriceFilterDto {
  @IsUUID()
  @ApiProperty({ format: 'uuid' })
  issuerId: string;

  @ApiProperty({ example: '25.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsAmount()
  amount: string | number;
}

export class InvoiceFilterDto {
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(5)
  @IsIn(INVOICE_STATUSES, { each: true })
  @ApiPropertyOptional({ type: [String], enum: INVOICE_STATUSES })
  statuses?: string[];

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TotalPriceFilterDto)
  totalPrice?: TotalPriceFilterDto;

  @IsOptional()
  @IsIsoDateTime()
  createdAtFrom?: string;

  /** Must be after createdAtFrom. */
  @IsOptional()
  @IsIsoDateTime()
  @IsAfter('createdAtFrom')
  createdAtTo?: string;
}

export class InvoiceViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => InvoiceFilterDto)
  filter?: InvoiceFilterDto;
}

export class InvoicePageDto extends PageDto {
  records: InvoiceDto[];
}

export class PayInvoiceDto {
  /** The caller's coin paying the invoice. */
  @Serial()
  payerCoin: string;
}

export class InvoiceCalculationDto extends CalculationDto {}

export class CreateInvoiceTemplateDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  /** Its recipientCoin is required: without it the template is refused with a 404 (section 7). */
  @IsObject()
  @ValidateNested()
  @Type(() => InvoiceDraftDto)
  invoiceDraft: InvoiceDraftDto;
}

export class InvoiceTemplateDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  name: string;
  @ApiProperty({ type: 'object', additionalProperties: true })
  invoiceDraft: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class InvoiceTemplateResponseDto {
  status: 'ok';
  message: string;
  template: InvoiceTemplateDto;
}

export class InvoiceTemplateViewDto extends PageRequestDto {}

export class InvoiceTemplatePageDto extends PageDto {
  records: InvoiceTemplateDto[];
}

/** What an invoice issued from a template may set beside its draft. */
export class IssueFromTemplateDto {
  @ApiPropertyOptional({ example: '25.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsOptional()
  @IsAmount()
  amount?: string | number;

  @OptionalText(254)
  @ApiPropertyOptional({ type: String, maxLength: 254 })
  payerContact?: string;

  @IsOptional()
  @IsIsoDateTime()
  @ApiPropertyOptional({ format: 'date-time' })
  expiresAt?: string;
}
