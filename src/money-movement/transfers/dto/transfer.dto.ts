import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, registerDecorator, ValidationArguments } from 'class-validator';
import { CalculationDto, PaymentToolDetailsDto } from '../../../platform/commissions/dto/calculation.dto';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { NUMERIC_ID_DIGITS, SERIAL_PATTERN } from '../../../platform/common/validators';
import { Amount, ApiEnum, ApiExample, Nested } from '../../../platform/common/dto-fields';

/** The payment tools a transfer names: a coin, or a smart card standing for one. */
export const TRANSFER_TOOL_TYPES = ['COIN', 'SMART_CARD'] as const;
export type TransferToolType = (typeof TRANSFER_TOOL_TYPES)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A tool value checked by its tool's type: COIN takes coin serials on both sides; SMART_CARD takes a
 * card id as the payer and a coin serial or a card id as the payee.
 */
function ToolValue(side: 'src' | 'dest'): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isToolValue',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args: ValidationArguments) =>
          (args.object as PaymentToolDto).type === 'SMART_CARD'
            ? side === 'src'
              ? 'must be a smart card id (UUID)'
              : 'must be a coin serial (digits) or a smart card id (UUID)'
            : 'must be a coin serial (digits)',
      },
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          if (typeof value !== 'string') return false;
          if ((args.object as PaymentToolDto).type !== 'SMART_CARD') return SERIAL_PATTERN.test(value);
          return UUID.test(value) || (side === 'dest' && SERIAL_PATTERN.test(value));
        },
      },
    });
}

const TOOL_VALUE_PATTERN = `^(${NUMERIC_ID_DIGITS}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$`;

export class PaymentToolDto {
  /** `COIN`: both values are coin serials. `SMART_CARD`: the payer is one of the caller's smart cards (its coin pays; the operation is a `card_payment`). */
  @ApiEnum(TRANSFER_TOOL_TYPES)
  @IsIn(TRANSFER_TOOL_TYPES)
  type: TransferToolType;

  /** COIN: the payer coin's serial, one of the caller's coins. SMART_CARD: the id of one of the caller's smart cards. */
  @ApiProperty({ example: '1000000001', pattern: TOOL_VALUE_PATTERN })
  @ToolValue('src')
  srcValue: string;

  /** COIN: the payee coin's serial. SMART_CARD: the payee coin's serial, or a smart card id (its coin receives). */
  @ApiProperty({ example: '1000000002', pattern: TOOL_VALUE_PATTERN })
  @ToolValue('dest')
  destValue: string;
}

export class TransferRequestDto extends OperationTextDto {
  @IsDefined()
  @Nested(() => PaymentToolDto)
  paymentTool: PaymentToolDto;

  /** A positive decimal string (or JSON number) with no more decimals than the currency allows. */
  @Amount('10.50')
  amount: string | number;
}

/** The tools of a transfer as the family's payment form shows them before paying. */
export class TransferPaymentToolDetailsDto extends PaymentToolDetailsDto {
  /** The paying coin's serial (srcValue may be a card's number or id). */
  @ApiExample('1000000001')
  srcId: string;
  /** The receiving coin's serial (destValue may be a card's number or id). */
  @ApiExample('1000000002')
  destId: string;
  /**
   * The receiving coin's owner as a payee check shows it (`POST /coins/validate`): a person's first name and initial
   * (`Alice L.`), a merchant's name, a name that is a login masked; never the full name, e-mail or phone.
   */
  @ApiExample('Alice L.')
  recipientFullName: string;
}

export class TransferCalculationDto extends CalculationDto {
  override paymentToolDetails: TransferPaymentToolDetailsDto;
  /** The currency's code. */
  @ApiExample('USD')
  currency: string;
  @ApiAmount(10.5, 'What leaves the payer coin (amount plus commission)')
  payerAmount: JsonDecimal;
  @ApiAmount(10.5, 'What reaches the payee coin')
  payeeAmount: JsonDecimal;
  @ApiAmount(0)
  commission: JsonDecimal;
}
