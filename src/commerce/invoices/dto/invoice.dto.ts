import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
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
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { AsList, IsAfter, IsIsoDateTime, OptionalText, Serial } from '../../../platform/common/validators';
import { CalculationDto } from '../../../platform/commissions/dto/calculation.dto';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';
import { IDENTIFICATION_STATUSES, ORGANIZATION_TYPES, PERSON_TYPES } from '../../../platform/organizations/organization.types';
import { FAMILY_INVOICE_STATUSES, INVOICE_FILTER_STATUSES, INVOICE_STATUSES } from '../invoice-statuses';
import {
  Amount,
  ApiDateTime,
  ApiDateTimeOrNull,
  ApiEnum,
  ApiExample,
  ApiOptionalDateTime,
  ApiOptionalEnum,
  ApiOptionalUuid,
  ApiTextOrNull,
  ApiUuid,
  ApiUuidOrNull,
  Nested,
} from '../../../platform/common/dto-fields';

export const INVOICE_DIRECTIONS = ['INCOMING', 'OUTGOING'] as const;

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
  @Amount('2.50')
  price: string | number;
}

/** The payer and the items, sent alike for an invoice and a template's draft. */
abstract class InvoicePayerItemsDto {
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
}

/** What an invoice (or a template's draft) holds. */
export class InvoiceDraftDto extends InvoicePayerItemsDto {
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

  /** Anything the issuer wants back with the invoice (an order number). */
  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;

  /** When invoices issued from the template stop being payable, as the client last entered it (kept with the draft). */
  @IsOptional()
  @IsIsoDateTime()
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  expiresAt?: string | null;
}

export class CreateInvoiceDto extends InvoicePayerItemsDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  /** The issuer's coin the payment goes to (one of the caller's organization's coins). */
  @Serial()
  recipientCoin: string;

  /** The total; with items, it must be their sum. */
  @Amount('25.00')
  amount: string | number;

  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;

  /** After this moment the invoice cannot be paid (409) and becomes `expired`. */
  @IsOptional()
  @IsIsoDateTime()
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  expiresAt?: string | null;
}

/**
 * An invoice's `data` (and a template's draft's): the object its issuer sent, answered as sent. The family's web client
 * sends and reads these four; any other key the issuer sent is answered too.
 */
const INVOICE_DATA: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: true,
  properties: {
    productCode: { type: 'string', description: "The product's code, as the issuer sent it." },
    productPrice: {
      oneOf: [{ type: 'number' }, { type: 'string' }],
      nullable: true,
      description: "The product's unit price, as the issuer sent it (a number or a decimal string).",
    },
    description: { type: 'string', nullable: true, description: 'What the invoice is for, as the issuer sent it.' },
    count: {
      oneOf: [{ type: 'number' }, { type: 'string' }],
      nullable: true,
      description: 'How many, as the issuer sent it.',
    },
    terms: { type: 'string', nullable: true, description: 'The terms of payment, as the issuer sent them.' },
    invoiceName: { type: 'string', nullable: true, description: "A name for the invoice's product, as the issuer sent it." },
  },
};

export class InvoiceItemAnswerDto {
  name: string;
  quantity: number;
  @ApiAmount(2.5)
  price: JsonDecimal;
}

/** The currency the invoice is priced in, as the family client reads it (`invoice.issuer.currency`). */
export class InvoiceIssuerDto {
  @ApiUuid()
  id: string;
  @ApiExample('1001')
  sn: string;
  @ApiExample('USD')
  currency: string;
  @ApiTextOrNull('$')
  symbol: string | null;
}

/** Who issued an invoice, as the family client reads it (`createdByUser`). */
export class InvoiceCreatorDto {
  /** The user who issued it (`createdByUserId`). */
  @ApiUuid()
  id: string;
  /** Their name, for their own organization and auditors; null for anyone else (the payer reads `merchantName`). */
  @ApiTextOrNull()
  name: string | null;
  /** The organization it was issued for (`organizationId`): the family client offers to pay only an invoice not its own. */
  @ApiUuid()
  profileOrganizationId: string;
}

export class InvoicePayerContractDto {
  @ApiUuid()
  id: string;
  @ApiEnum(PERSON_TYPES)
  personType: string;
  name: string;
}

/**
 * The organization paying the invoice: the one whose coin paid it, or, while it is unpaid, the caller's own when the
 * caller is its payer (their login is its payerContact). Its identification status and contract are shown to the
 * payer itself and to auditors; to the issuer they are null, as they are not a counterparty's business.
 */
export class InvoicePayerDto {
  @ApiUuid()
  id: string;
  @ApiEnum(ORGANIZATION_TYPES)
  type: string;
  name: string;
  @ApiProperty({ type: String, nullable: true, enum: IDENTIFICATION_STATUSES })
  identificationStatus: string | null;
  @ApiProperty({ type: () => InvoicePayerContractDto, nullable: true })
  contract_info: InvoicePayerContractDto | null;
}

export class InvoiceDto {
  @ApiUuid()
  id: string;
  /** The invoice's id under the family client's name: what `…/calculate`, `…/pay` and `DELETE` address it by. */
  @ApiUuid()
  identifier: string;
  @ApiUuid()
  organizationId: string;
  name: string;
  recipientCoin: string;
  /** The issuer of the recipient coin's currency: with `amount`, the invoice's total price. */
  @ApiUuid()
  issuerId: string;
  currency: string;
  @ApiAmount(25)
  amount: JsonDecimal;
  @ApiAmount(25, "The amount under the family client's name")
  totalPrice: JsonDecimal;
  issuer: InvoiceIssuerDto;
  @ApiTextOrNull()
  payerContact: string | null;
  items: InvoiceItemAnswerDto[];
  /**
   * What the issuer sent with it (the family's form sends productCode, productPrice, description, count); `{}` when it
   * sent nothing, as the family's invoice lists read `data.description` of every invoice.
   */
  @ApiProperty(INVOICE_DATA)
  data: Record<string, unknown>;
  /**
   * In the family's words: pending (awaiting payment) → approved (being paid) → paid | declined (withdrawn by its
   * issuer or rejected by its payer) | expired (past `expiresAt`, swept or not).
   */
  @ApiEnum(FAMILY_INVOICE_STATUSES)
  status: string;
  /**
   * The same status in the service's own words, as `status` answered it before issue 45: initiated (awaiting payment),
   * pending (being paid), paid, declined, expired.
   */
  @ApiEnum(INVOICE_STATUSES)
  serviceStatus: string;
  @ApiDateTimeOrNull()
  expiresAt: string | null;
  @ApiUuidOrNull()
  operationId: string | null;
  @ApiTextOrNull()
  paidByCoin: string | null;
  @ApiUuidOrNull()
  templateId: string | null;
  /** The user who issued it. */
  @ApiUuid()
  createdByUserId: string;
  createdByUser: InvoiceCreatorDto;
  /** The name of the organization that issued it (the merchant), what the payer's screens show as from whom. */
  merchantName: string;
  @ApiProperty({ type: () => InvoicePayerDto, nullable: true })
  payer: InvoicePayerDto | null;
  /** The id of the operation that paid it (`operationId`: the payment in both sides' history); null until paid. */
  @ApiUuidOrNull()
  paymentCode: string | null;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTimeOrNull()
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
  @ApiUuid()
  issuerId: string;

  @Amount('25.00')
  amount: string | number;
}

/** The family client's `filter.totalPrice`: a bare amount, in any currency. */
export class AmountFilterDto {
  @IsAmount()
  amount: string | number;
}

@ApiExtraModels(TotalPriceFilterDto)
export class InvoiceFilterDto {
  /**
   * Up to every status, in the family's words (`pending`: awaiting payment, `approved`: being paid) or the service's
   * `initiated` (awaiting payment too).
   */
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(INVOICE_FILTER_STATUSES.length)
  @IsIn(INVOICE_FILTER_STATUSES, { each: true })
  @ApiPropertyOptional({ type: [String], enum: INVOICE_FILTER_STATUSES })
  statuses?: string[];

  /** OUTGOING: the invoices the caller's organization issued (the default); INCOMING: those the caller pays (its login is
   * their payerContact, or one of its coins paid them). */
  @IsOptional()
  @IsIn(INVOICE_DIRECTIONS)
  @ApiOptionalEnum(INVOICE_DIRECTIONS)
  direction?: (typeof INVOICE_DIRECTIONS)[number];

  /** The invoice's identifier. */
  @IsOptional()
  @IsUUID()
  @ApiOptionalUuid()
  identifier?: string;

  /** The user who issued it. */
  @IsOptional()
  @IsUUID()
  @ApiOptionalUuid()
  createdByUserId?: string;

  /** `{issuerId, amount}` (issuer and amount together), or the family client's bare amount (any issuer). */
  @Nested(() => TotalPriceFilterDto, 'optional')
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' || typeof value === 'number' ? Object.assign(new AmountFilterDto(), { amount: value }) : value,
  )
  @ApiPropertyOptional({ oneOf: [{ $ref: getSchemaPath(TotalPriceFilterDto) }, { type: 'string', example: '25.00' }, { type: 'number' }] })
  totalPrice?: TotalPriceFilterDto | AmountFilterDto;

  @IsOptional()
  @IsIsoDateTime()
  createdAtFrom?: string;

  /** Must be after createdAtFrom. */
  @IsOptional()
  @IsIsoDateTime()
  @IsAfter('createdAtFrom')
  createdAtTo?: string;
}

/** One key: newest first by default. */
export class InvoiceSortDto {
  @SortOrder()
  createdAt?: 'asc' | 'desc';
  @SortOrder()
  totalPrice?: 'asc' | 'desc';
  @SortOrder()
  status?: 'asc' | 'desc';
}

export class InvoiceViewDto extends PageRequestDto {
  @Nested(() => InvoiceFilterDto, 'optional')
  filter?: InvoiceFilterDto;

  @Nested(() => InvoiceSortDto, 'optional')
  sort?: InvoiceSortDto;
}

export class InvoicePageDto extends PageDto {
  records: InvoiceDto[];
}

export class PayInvoiceDto {
  /** The caller's coin paying the invoice. */
  @Serial()
  payerCoin: string;
}

/** The issuer's question before issuing: what would paying this much into `recipientCoin` cost its payer? */
export class InvoiceEstimateDto {
  /** The issuer's coin the payment would go to (one of the caller's organization's coins). */
  @Serial()
  recipientCoin: string;

  @Amount('25.00')
  amount: string | number;

  /** The payer's login (an e-mail address or a phone number): their terms price it when they have a coin to pay from. */
  @OptionalText(254)
  @ApiPropertyOptional({ type: String, maxLength: 254 })
  payerContact?: string;
}

/** The price of paying an invoice; `currency` is the invoice's, where the family client reads it. */
export class InvoiceCalculationDto extends CalculationDto {
  @ApiExample('USD')
  currency: string;
}

export class CreateInvoiceTemplateDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  /** Its recipientCoin is required: without it the template is refused with a 404 (section 7). */
  @Nested(() => InvoiceDraftDto)
  invoiceDraft: InvoiceDraftDto;
}

export class InvoiceTemplateDto {
  @ApiUuid()
  id: string;
  name: string;
  @ApiProperty({ type: 'object', additionalProperties: true })
  invoiceDraft: Record<string, unknown>;
  /** The draft's amount, recipient coin, payer and expiry, where the family client's template table reads them. */
  @ApiProperty({ type: 'number', nullable: true, example: 25 })
  amount: JsonDecimal | null;
  @ApiTextOrNull()
  recipientCoin: string | null;
  @ApiTextOrNull()
  payerContact: string | null;
  @ApiDateTimeOrNull()
  expiresAt: string | null;
  @ApiDateTime()
  createdAt: string;
  /** The template's name (as `name`): the family's invoice form picks a template by it. */
  templateName: string;
  /** The name of the invoices it issues: the draft's `name`, else the template's. */
  invoiceName: string;
  /** The draft's `data`, `{}` when it has none: the family's forms fill productCode, productPrice, count from it. */
  @ApiProperty(INVOICE_DATA)
  data: Record<string, unknown>;
  /** The draft's `data.description` (what its invoices are for), null when it has none. */
  @ApiTextOrNull()
  description: string | null;
  /** Always `INVOICE`: the family's kind of template (a transfer template is `TRANSFER`). */
  @ApiEnum(['INVOICE'])
  type: 'INVOICE';
  /** Always true: a template issues any number of invoices. */
  @ApiEnum([true])
  reusable: true;
  /** Always false: a template issues an invoice when asked, never on a schedule (the family's regular templates). */
  @ApiEnum([false])
  regular: false;
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
  @ApiOptionalDateTime()
  expiresAt?: string;
}
