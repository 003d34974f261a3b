import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Serial, SERIAL_PATTERN } from '../../../platform/common/validators';

export const CARD_STATUSES = ['active', 'blocked'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

export class IssueSmartCardDto {
  /** The coin the card pays from: one of the caller's organization's client coins, not closed. */
  @Serial()
  coinSerial: string;

  /** A name for the card, 1 to 100 characters. */
  @ApiProperty({ example: 'Daily card', minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(/\S/, { message: 'must not be blank' })
  name: string;
}

/** A smart card: it stands for one coin of its organization. Its full number is never answered nor kept. */
export class SmartCardDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ example: 'Daily card' })
  name: string;
  /** The generated 16-digit number (Luhn-checked), masked but for its last four digits. */
  @ApiProperty({ example: '**** **** **** 4242', pattern: '^\\*{4} \\*{4} \\*{4} [0-9]{4}$' })
  maskedNumber: string;
  /** The coin the card pays from. */
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  coinSerial: string;
  /** The coin's currency code. */
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  symbol: string | null;
  /** `blocked` cards pay nothing (409) until unblocked. */
  @ApiProperty({ enum: CARD_STATUSES })
  status: CardStatus;
  /** The card-issuing provider when a gate issued a real card; null for the service's own cards. */
  @ApiProperty({ type: String, nullable: true })
  provider: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class SmartCardResponseDto {
  status: 'ok';
  message: string;
  card: SmartCardDto;
}

export class SmartCardListDto {
  status: 'ok';
  message: string;
  /** The organization's cards, newest first. */
  records: SmartCardDto[];
}
