import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { registerDecorator, IsIn, IsString, IsUUID, Matches, MaxLength, MinLength, ValidateIf, ValidationOptions } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { IsIsoDateTime } from '../../../platform/common/validators';
import { ApiDateTime, ApiEnum, ApiExample, ApiTextOrNull, ApiUuid } from '../../../platform/common/dto-fields';

export const SUBSCRIPTION_TYPES = ['DAILY', 'WEEKLY', 'MONTHLY', 'ANNUALLY'] as const;
export type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];
export const EXPIRATION_TYPES = ['DATE', 'INFINITY', 'COUNT', 'AMOUNT'] as const;
export type ExpirationType = (typeof EXPIRATION_TYPES)[number];
export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'STOPPED', 'PROCESSED', 'CANCELLED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const FREQUENCY_MAX = 1000;
export const COUNT_MAX = 100_000;

/** A whole number from 1 to `max`, as a JSON number or a string of digits (the family's web client sends its inputs' text). */
function IsCount(max: number, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isCount',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `must be a whole number from 1 to ${max}`, ...options },
      validator: {
        validate(value: unknown) {
          const text = typeof value === 'number' ? String(value) : value;
          return typeof text === 'string' && /^\d{1,9}$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= max;
        },
      },
    });
}

const DATE_DESCRIPTION =
  "A date (2030-01-31), or a date-time whose date in UTC is meant (the family's web client sends its date picker's midnight)";

/** A subscription to create, as the family's web client's form sends it. */
export class CreateSubscriptionDto {
  @ApiProperty({ example: 'Rent', minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(/\S/, { message: 'must not be blank' })
  name: string;

  /** One of the caller's transfer templates (`GET /templates/transfer`): what each due date pays. */
  @ApiUuid()
  @IsUUID()
  templateId: string;

  /** The first due date: today or later (yesterday is accepted too, for callers east of UTC). */
  @ApiProperty({ example: '2030-01-31', description: DATE_DESCRIPTION })
  @IsIsoDateTime()
  recurringStartDate: string;

  /** The period unit: due dates are the start date plus `frequency` × this, again and again. */
  @ApiEnum(SUBSCRIPTION_TYPES, 'MONTHLY')
  @IsIn(SUBSCRIPTION_TYPES)
  type: SubscriptionType;

  /** Every how many periods (1: every day, week, month or year). A number or a string of digits. */
  @ApiProperty({
    oneOf: [
      { type: 'integer', minimum: 1, maximum: FREQUENCY_MAX },
      { type: 'string', pattern: '^\\d+$' },
    ],
    example: 1,
  })
  @IsCount(FREQUENCY_MAX)
  frequency: number | string;

  /**
   * When it ends: DATE (no due date after `endDate`), COUNT (after `count` due dates, paid or failed), AMOUNT (before a
   * payment would take the total paid beyond `amount`), INFINITY (when stopped and deleted).
   */
  @ApiEnum(EXPIRATION_TYPES, 'COUNT')
  @IsIn(EXPIRATION_TYPES)
  expirationType: ExpirationType;

  /** With DATE: the last day a payment may fall on. Ignored otherwise (the client sends ""). */
  @ApiPropertyOptional({ example: '2030-12-31', description: DATE_DESCRIPTION })
  @ValidateIf((o: CreateSubscriptionDto) => o.expirationType === 'DATE')
  @IsIsoDateTime()
  endDate?: string;

  /** With COUNT: how many due dates run. Ignored otherwise (the client sends null). */
  @ApiPropertyOptional({
    oneOf: [
      { type: 'integer', minimum: 1, maximum: COUNT_MAX },
      { type: 'string', pattern: '^\\d+$' },
    ],
    example: 12,
  })
  @ValidateIf((o: CreateSubscriptionDto) => o.expirationType === 'COUNT')
  @IsCount(COUNT_MAX)
  count?: number | string | null;

  /** With AMOUNT: the most all payments together may move, in the template's currency. Ignored otherwise (the client sends null). */
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '1200.00' })
  @ValidateIf((o: CreateSubscriptionDto) => o.expirationType === 'AMOUNT')
  @IsAmount()
  amount?: number | string | null;
}

/** When a subscription ends, as the family's web client reads it. */
export class ExpirationConfigDto {
  @ApiEnum(EXPIRATION_TYPES)
  type: ExpirationType;
  /** With AMOUNT: the most all payments together may move; else null. */
  @ApiProperty({ type: 'number', nullable: true, example: 1200, description: 'An exact decimal written as a JSON number, or null' })
  amount: JsonDecimal | null;
  /** With COUNT: how many due dates run; else null. */
  @ApiProperty({ type: 'integer', nullable: true, example: 12 })
  count: number | null;
  /** With DATE: the last day a payment may fall on; else null. */
  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2030-12-31' })
  expirationDate: string | null;
}

/** The template a subscription pays, as the family's web client reads it. */
export class SubscriptionTemplateDto {
  @ApiUuid()
  id: string;
  @ApiEnum(['TRANSFER'])
  type: 'TRANSFER';
  @ApiExample('Rent')
  name: string;
  @ApiAmount(450, 'What each due date pays')
  amount: JsonDecimal;
  @ApiExample('USD')
  currency: string;
  @ApiTextOrNull()
  description: string | null;
  @ApiExample('1000000001')
  payerCoin: string;
  @ApiExample('1000000002')
  payeeCoin: string;
  /** A template may be executed again and again. */
  @ApiExample(true)
  reusable: boolean;
  /** Paid on a schedule (always, here). */
  @ApiExample(true)
  regular: boolean;
}

/** The latest due date the scheduler ran. */
export class SubscriptionRunDto {
  @ApiProperty({ format: 'date', example: '2030-01-31' })
  dueDate: string;
  /** processed: paid; failed: refused (insufficient funds, a coin closed), and the subscription went on. */
  @ApiEnum(['processed', 'failed'])
  status: 'processed' | 'failed';
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The payment (a client_transaction_transfer)' })
  operationId: string | null;
  @ApiTextOrNull('exception.coin.insufficient_funds')
  errorCode: string | null;
  @ApiTextOrNull()
  errorMessage: string | null;
}

export class SubscriptionDto {
  @ApiUuid()
  id: string;
  @ApiExample('Rent')
  name: string;
  @ApiEnum(SUBSCRIPTION_TYPES)
  type: SubscriptionType;
  @ApiExample(1)
  frequency: number;
  @ApiProperty({ format: 'date', example: '2030-01-31' })
  recurringStartDate: string;
  expirationConfig: ExpirationConfigDto;
  templateDto: SubscriptionTemplateDto;
  /** ACTIVE: paid on its due dates; STOPPED: by its owner; PROCESSED: ended (its end date, count or amount); CANCELLED: cannot go on. */
  @ApiEnum(SUBSCRIPTION_STATUSES)
  subscriptionStatus: SubscriptionStatus;
  /** The next date a payment falls on, while ACTIVE or STOPPED; null once ended. */
  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2030-02-28' })
  nextDueDate: string | null;
  /** Due dates run so far (paid or failed). */
  @ApiExample(1)
  runs: number;
  @ApiAmount(450, 'What its payments moved so far')
  paid: JsonDecimal;
  @ApiProperty({ type: SubscriptionRunDto, nullable: true })
  lastRun: SubscriptionRunDto | null;
  @ApiDateTime()
  createdAt: string;
}

export class SubscriptionResponseDto {
  status: 'ok';
  message: string;
  subscription: SubscriptionDto;
}

export class SubscriptionListDto {
  status: 'ok';
  message: string;
  /** The caller's subscriptions, oldest first, at most 1,000. */
  subscriptions: SubscriptionDto[];
}
