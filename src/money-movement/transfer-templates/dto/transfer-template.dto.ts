import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Equals, IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { DESCRIPTION_MAX, OperationTextDto } from '../../../platform/common/operation-text.dto';
import { NameSortDto, PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { Serial, SERIAL_PATTERN, SerialList } from '../../../platform/common/validators';
import { OperationResultDto } from '../../../platform/ledger/dto/operation.dto';
import { OPERATION_STATUSES } from '../../../platform/ledger/operation-types';
import { CoinDto, CoinIssuerDto } from '../../coins/dto/coin.dto';
import { TransferCalculationDto } from '../../transfers/dto/transfer.dto';
import {
  Amount,
  ApiDateTime,
  ApiEnum,
  ApiExample,
  ApiOptionalEnum,
  ApiTextOrNull,
  ApiUuid,
  Nested,
} from '../../../platform/common/dto-fields';

export const TEMPLATE_NAME_MAX = 100;
/** A template's name: 1 to 100 characters, not blank; unique among the owner's templates, whatever its case. */
function TemplateName(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ example: 'Rent', minLength: 1, maxLength: TEMPLATE_NAME_MAX }),
    IsString(),
    MinLength(1),
    MaxLength(TEMPLATE_NAME_MAX),
    Matches(/\S/, { message: 'must not be blank' }),
  );
}

/** The most templates `GET /templates/transfer` answers (a user keeps far fewer). */
export const TEMPLATE_LIST_MAX = 1000;

/** A template's transfer as the family's web client sends it: a coin-to-coin payment tool. */
export class TemplatePaymentToolDto {
  /** Templates are coin-to-coin transfers. */
  @ApiEnum(['COIN'])
  @Equals('COIN', { message: 'must be COIN: a template is a transfer between coins' })
  type: 'COIN';

  /** The paying coin's serial. */
  @Serial()
  srcValue: string;

  /** The receiving coin's serial. */
  @Serial()
  destValue: string;
}

/** A transfer to save: what `POST /transfers` would send, under a name. */
export class CreateTransferTemplateDto extends OperationTextDto {
  /** Unique among the caller's templates, whatever its case. */
  @TemplateName()
  name: string;

  /** The paying coin: one of the caller's organization's client coins, not closed. Required unless `paymentTool` is given. */
  @ValidateIf((dto: CreateTransferTemplateDto) => dto.paymentTool === undefined || dto.payerCoin !== undefined)
  @Serial()
  payerCoin?: string;

  /** The receiving coin: any client coin of the payer coin's currency, not closed. Required unless `paymentTool` is given. */
  @ValidateIf((dto: CreateTransferTemplateDto) => dto.paymentTool === undefined || dto.payeeCoin !== undefined)
  @Serial()
  payeeCoin?: string;

  /** The family's web client's form of the two coins (`srcValue` pays, `destValue` receives), instead of payerCoin and payeeCoin. */
  @ApiPropertyOptional({ type: TemplatePaymentToolDto })
  @Nested(() => TemplatePaymentToolDto, 'optional')
  paymentTool?: TemplatePaymentToolDto;

  /** A positive decimal string (or JSON number) with no more decimals than the currency allows. */
  @Amount('450.00')
  amount: string | number;
}

/** A template's coins as the family's web client reads them. */
export class TemplatePaymentToolDetailsDto {
  @ApiEnum(['COIN'])
  type: 'COIN';
  /** The paying coin's serial (srcValue and srcId alike). */
  @ApiExample('1000000001')
  srcId: string;
  @ApiExample('1000000001')
  srcValue: string;
  /** The receiving coin's serial (destValue and destId alike). */
  @ApiExample('1000000002')
  destId: string;
  @ApiExample('1000000002')
  destValue: string;
  /**
   * The receiving coin's owner as a payee check shows it (`POST /coins/validate`): a person's first name and initial
   * (`Alice L.`), a merchant's name, a name that is a login masked; never the full name, e-mail or phone.
   */
  @ApiExample('Alice L.')
  recipientFullName: string;
  @ApiExample('USD')
  currency: string;
  @ApiTextOrNull('$')
  symbol: string | null;
}

/**
 * A template's receiving coin: what a payment form needs of it, its serial and its issuer (the currency it holds).
 * It may be another organization's: nothing of its owner, balance or state is answered.
 */
export class TemplateRecipientCoinDto {
  @ApiProperty({ example: '1000000002', pattern: SERIAL_PATTERN.source })
  serial: string;
  /** The coin's issuer, with its currency's code and symbol. */
  issuer: CoinIssuerDto;
  /** Always `client`: only client coins are paid. */
  @ApiEnum(['client'])
  type: 'client';
}

/** A saved transfer. `POST /templates/transfer/{id}/execute` sends it; so does `POST /transfers` with these values. */
export class TransferTemplateDto {
  @ApiUuid()
  id: string;
  @ApiExample('Rent')
  name: string;
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  payerCoin: string;
  @ApiProperty({ example: '1000000002', pattern: SERIAL_PATTERN.source })
  payeeCoin: string;
  @ApiAmount(450, 'What the transfer would move')
  amount: JsonDecimal;
  /** The payer coin's currency code. */
  @ApiExample('USD')
  currency: string;
  @ApiTextOrNull('$')
  symbol: string | null;
  @ApiTextOrNull()
  description: string | null;
  @ApiTextOrNull()
  customInformation: string | null;
  @ApiDateTime()
  createdAt: string;
  /** Always TRANSFER. */
  @ApiEnum(['TRANSFER'])
  type: 'TRANSFER';
  paymentToolDetails: TemplatePaymentToolDetailsDto;
  /** The paying coin (`payerCoin`), one of the caller's organization's, as `GET /coins/{serial}` answers it. */
  senderCoin: CoinDto;
  /** The receiving coin (`payeeCoin`): its serial and issuer only. */
  recipientCoin: TemplateRecipientCoinDto;
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

  /** The family's web client's filter: COIN finds every template; SMART_CARD none (templates pay from coins). */
  @ApiOptionalEnum(['COIN', 'SMART_CARD'])
  @IsOptional()
  @IsIn(['COIN', 'SMART_CARD'])
  paymentToolType?: 'COIN' | 'SMART_CARD';
}

export class TransferTemplateSortDto extends NameSortDto {}

export class TransferTemplateViewDto extends PageRequestDto {
  @Nested(() => TransferTemplateFilterDto, 'optional')
  filter?: TransferTemplateFilterDto;

  @Nested(() => TransferTemplateSortDto, 'optional')
  sort?: TransferTemplateSortDto;
}

export class TransferTemplatePageDto extends PageDto {
  records: TransferTemplateDto[];
}

export class TransferTemplateListDto {
  status: 'ok';
  message: string;
  /** The caller's templates by name, at most 1,000. */
  transferTemplates: TransferTemplateDto[];
}

/**
 * What executing a template would cost and deliver: `POST /transfers/calculate`'s answer, with the paying coin's issuer
 * in full and the template's `paymentToolDetails` (its coins' serials as srcId/destId and the payee's display name).
 */
export class TemplateCalculationDto extends OmitType(TransferCalculationDto, ['issuer', 'paymentToolDetails'] as const) {
  /** The paying coin's issuer, with its currency's code and symbol. */
  issuer: CoinIssuerDto;
  paymentToolDetails: TemplatePaymentToolDetailsDto;
}

/**
 * A template's transfer, sent: `POST /transfers`'s answer (`process`, the operation), with the family's names for it
 * beside — the family's web client keeps `businessProcessId` to save the payment as a template again.
 */
export class TemplateExecutionDto extends OperationResultDto {
  /** The operation's id (`process.id`). */
  @ApiUuid()
  businessProcessId: string;
  /** The operation's status (`process.status`). */
  @ApiEnum(OPERATION_STATUSES, 'processed')
  businessProcessStatus: string;
  /** The template sent. */
  @ApiUuid()
  templateId: string;
}

/** Calculating or executing a template: its amount unless another is given. */
export class TemplateAmountDto {
  /** A positive decimal string (or JSON number); the template's own amount when absent. */
  @ApiPropertyOptional({ example: '450.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsOptional()
  @IsAmount()
  amount?: string | number;
}

/** Saving a done transfer as a template: `POST /templates/transfer/operation/{operationId}`. */
export class TemplateFromOperationDto {
  @TemplateName()
  name: string;

  /** The template's amount; the operation's when absent. */
  @ApiPropertyOptional({ example: '450.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsOptional()
  @IsAmount()
  amount?: string | number;

  @ApiPropertyOptional({ maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string;

  /** Sent by the family's web client; every template is reusable, so it changes nothing. */
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  reusable?: boolean;
}

/** What `PATCH /templates/transfer/{id}` may change: name, amount, description; the coins stay (other coins make a new template). */
export class UpdateTransferTemplateDto extends PartialType(OmitType(TemplateFromOperationDto, ['reusable'] as const)) {}
