import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Serial, SERIAL_PATTERN } from '../../../platform/common/validators';
import { ApiDateTime, ApiEnum, ApiExample, ApiTextOrNull, ApiUuid, OptionalFlag } from '../../../platform/common/dto-fields';

export const CARD_STATUSES = ['active', 'blocked'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

/** A card's name: 1 to 100 characters, not blank. */
function CardName({ required = true } = {}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ example: 'Daily card', minLength: 1, maxLength: 100, pattern: '\\S', required }),
    IsString(),
    MinLength(1),
    MaxLength(100),
    Matches(/\S/, { message: 'must not be blank' }),
  );
}

export class IssueSmartCardDto {
  /** The coin the card pays from: one of the caller's organization's client coins, not closed. */
  @Serial()
  coinSerial: string;

  /** A name for the card, 1 to 100 characters. */
  @CardName()
  name: string;
}

/**
 * A card of the caller as the family's web client creates it (`POST /smart-cards/my`): the coin is
 * `associatedCoinSerial`; `active: false` issues it blocked.
 */
export class CreateMySmartCardDto {
  /** The coin the card pays from: one of the caller's organization's client coins, not closed. */
  @Serial()
  associatedCoinSerial: string;

  /** A name for the card, 1 to 100 characters. */
  @CardName()
  name: string;

  /** `false` issues the card blocked; true or absent, active. */
  @OptionalFlag(true)
  active?: boolean;

  /**
   * The number of a card the holder already holds (16 digits, Luhn-checked), to be paid to by it; absent, the service
   * generates one. Kept only as a keyed hash and its last four digits; another card's number is a 409.
   */
  @ApiPropertyOptional({ example: '4242424242424242', pattern: '^[0-9]{16}$', writeOnly: true })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{16}$/, { message: 'must be 16 digits' })
  cardNumber?: string;
}

/** A change of one of the caller's cards: its name, and `active` (false blocks it, true unblocks it). */
export class UpdateMySmartCardDto {
  @IsOptional()
  @CardName({ required: false })
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

/** A smart card: it stands for one coin of its organization. Its full number is never answered nor kept. */
export class SmartCardDto {
  @ApiUuid()
  id: string;
  @ApiExample('Daily card')
  name: string;
  /** The generated 16-digit number (Luhn-checked), masked but for its last four digits. */
  @ApiProperty({ example: '**** **** **** 4242', pattern: '^\\*{4} \\*{4} \\*{4} [0-9]{4}$' })
  maskedNumber: string;
  /** The coin the card pays from. */
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  coinSerial: string;
  /** The coin's currency code. */
  @ApiExample('USD')
  currency: string;
  @ApiTextOrNull('$')
  symbol: string | null;
  /** `blocked` cards pay nothing (409) until unblocked. */
  @ApiEnum(CARD_STATUSES)
  status: CardStatus;
  /** The card-issuing provider when a gate issued a real card; null for the service's own cards. */
  @ApiTextOrNull()
  provider: string | null;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
  /** The family's names. The card's number, masked as `maskedNumber` (the full number is never answered). */
  @ApiProperty({ example: '**** **** **** 4242', pattern: '^\\*{4} \\*{4} \\*{4} [0-9]{4}$' })
  cardNumber: string;
  /** Whether the card pays: `status` is `active`. */
  active: boolean;
  /** The last day the card pays. */
  @ApiProperty({ format: 'date', example: '2029-11-26' })
  expirationDate: string;
  /** `EXPIRED` once `expirationDate` has passed. */
  @ApiEnum(['ACTIVE', 'EXPIRED'])
  expirationStatus: 'ACTIVE' | 'EXPIRED';
  @ApiUuid()
  organizationId: string;
  /** The coin the card pays from (as `coinSerial`). */
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  associatedCoinSerial: string;
  /** The coin's currency code (as `currency`). */
  @ApiExample('USD')
  currencyCode: string;
  /**
   * The network the card pays through, which the family's card details show: the card-issuing provider (`provider`)
   * for a card a gate issued; `internal` for the service's own cards, which belong to no card scheme and pay only
   * between the service's coins.
   */
  @ApiExample('internal')
  paymentSystem: string;
}

export class SmartCardResponseDto {
  status: 'ok';
  message: string;
  card: SmartCardDto;
}

/** One of the caller's cards as the family's client reads it: `smartCard`, and `records` holding it alone. */
export class MySmartCardResponseDto extends SmartCardResponseDto {
  smartCard: SmartCardDto;
  records: SmartCardDto[];
}

export class SmartCardListDto {
  status: 'ok';
  message: string;
  /** The organization's cards, newest first. */
  records: SmartCardDto[];
}
