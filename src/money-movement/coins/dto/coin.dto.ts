import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { AsList, NUMERIC_ID_DIGITS, Serial, SerialList, UuidList } from '../../../platform/common/validators';
import { CurrencyDto } from '../../currencies/dto/currency.dto';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';
import {
  ApiDateTime,
  ApiDateTimeOrNull,
  ApiEnum,
  ApiExample,
  ApiInteger,
  ApiTextOrNull,
  ApiUuid,
  Name,
  Nested,
} from '../../../platform/common/dto-fields';

export class CreateCoinDto {
  /** The issuer (and so the currency) of the new coin. */
  @IsUUID()
  issuerId: string;

  @Name(100, 'Savings')
  name: string;
}

/** What the owner may change of a coin: its name, and whether it is active. At least one. */
export class UpdateCoinDto {
  @ApiPropertyOptional({ example: 'Holidays', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  /** Deactivate (false) or reactivate (true) the coin. A renaming alone never changes it. */
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class SetMainCoinDto {
  /** Serial of the coin to make the main one of its currency. */
  @Serial()
  serial: string;
}

const SERIAL_OR_EMPTY = new RegExp(`^(${NUMERIC_ID_DIGITS})?$`);

export class CloseCoinDto {
  /** Coin that receives the remaining balance; required when the coin is not empty. An empty string means none. */
  @ApiPropertyOptional({ example: '1000000002', pattern: SERIAL_OR_EMPTY.source })
  @IsOptional()
  @IsString()
  @Matches(SERIAL_OR_EMPTY, { message: 'must be a coin serial (digits) or empty' })
  transferToCoinSerial?: string;
}

/** The coin's issuer, with its currency's code and symbol. */
export class CoinIssuerDto {
  @ApiUuid()
  id: string;
  /** The issuer's serial number. */
  @ApiInteger()
  sn: number;
  /** The currency's code. */
  @ApiExample('USD')
  currency: string;
  @ApiTextOrNull('$')
  symbol: string | null;
}

export class CoinDto {
  /** Numeric serial, as a string. */
  @ApiExample('1000000001')
  serial: string;
  name: string;
  @ApiAmount(125.5, 'The balance')
  amount: JsonDecimal;
  @ApiAmount(100.5, 'The balance less the amount held by pending requests')
  availableAmount: JsonDecimal;
  @ApiAmount(25, 'Reserved by pending requests')
  heldAmount: JsonDecimal;
  @ApiAmount(
    100.5,
    'The balance once the pending requests are decided as asked: the balance less what they hold (only outgoing amounts are held; money coming in counts once it is on the coin)',
  )
  futureAmount: JsonDecimal;
  @ApiAmount(0, 'How far below zero the coin may go: always 0, the service lends nothing')
  creditLimit: JsonDecimal;
  issuer: CoinIssuerDto;
  /** The coin's currency. */
  currency: CurrencyDto;
  /** `client` for users' coins, `system` for the operator's technical coins. */
  @ApiEnum(['client', 'system'])
  type: string;
  /** The organization's main coin for this currency. */
  main: boolean;
  active: boolean;
  @ApiDateTimeOrNull()
  closedAt: string | null;
  @ApiDateTime()
  createdAt: string;
}

export class CoinResponseDto {
  status: 'ok';
  message: string;
  coin: CoinDto;
}

export class CoinListDto {
  status: 'ok';
  message: string;
  coins: CoinDto[];
}

/** A smart card standing for a coin, as the family's wallets screen shows it (its number masked, never in full). */
export class CoinSmartCardDto {
  @ApiUuid()
  id: string;
  name: string;
  /** Whether the card pays (it is not blocked). */
  active: boolean;
  @ApiProperty({ example: '**** **** **** 4242', pattern: '^\\*{4} \\*{4} \\*{4} [0-9]{4}$' })
  cardNumber: string;
  @ApiProperty({ format: 'date', example: '2029-11-26' })
  expirationDate: string;
  @ApiEnum(['ACTIVE', 'EXPIRED'])
  expirationStatus: string;
}

/** One of the caller's coins with the smart cards standing for it (GET /coins). */
export class MyCoinDto extends CoinDto {
  /** The coin's smart cards, newest first. */
  smartCards: CoinSmartCardDto[];
}

export class MyCoinListDto {
  status: 'ok';
  message: string;
  coins: MyCoinDto[];
}

export class CloseCoinResponseDto {
  status: 'ok';
  message: string;
  coin: CoinDto;
  /** The operation that moved the remaining balance, if there was any. */
  @ApiProperty({ type: () => OperationDto, nullable: true })
  process: OperationDto | null;
}

export class CoinFilterDto {
  @SerialList()
  serials?: string[];

  @UuidList()
  organizationIds?: string[];

  @UuidList()
  issuerIds?: string[];

  @ApiPropertyOptional({ enum: ['client', 'system'], isArray: true })
  @IsOptional()
  @AsList()
  @IsArray()
  @IsIn(['client', 'system'], { each: true })
  types?: ('client' | 'system')[];

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class CoinSortDto {
  @SortOrder()
  serial?: 'asc' | 'desc';
}

export class CoinViewDto extends PageRequestDto {
  @Nested(() => CoinFilterDto, 'optional')
  filter?: CoinFilterDto;

  @Nested(() => CoinSortDto, 'optional')
  sort?: CoinSortDto;
}

export class StaffCoinDto extends CoinDto {
  organizationId: string;
}

export class CoinPageDto extends PageDto {
  records: StaffCoinDto[];
}

/** A payee check: `POST /coins/validate`. */
export class ValidateCoinDto {
  /** Serial of the payee's coin. */
  @Serial()
  serial: string;
}

/** The owner of a payee's coin, as a payment form shows it before paying: its display name only. */
export class PayeeOwnerDto {
  /**
   * The owner's display name: a merchant's name; a person's first name and the initial of the last (`Alice L.`); a
   * name that is a login (as sign-up names a customer) masked (`a***@e***.com`, `+**********23`).
   */
  @ApiExample('Alice L.')
  name: string;
}

/** A payee check answers the least a payment form needs: the owner's display name (the family's form shows `owner.name`). */
export class PayeeCoinDto {
  @ApiExample('1000000001')
  serial: string;
  owner: PayeeOwnerDto;
}

export class ValidateCoinResponseDto extends PayeeCoinDto {
  status: 'ok';
  message: string;
}

/** Finds a contact's coin to pay: `POST /coins/serial`. */
export class CoinSerialRequestDto {
  /** The payee's login: an e-mail or a phone number. */
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  login: string;
  /** Code of the currency of the coin wanted, e.g. `EUR`. */
  @ApiExample('EUR')
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'must be a currency code such as EUR' })
  currencyCode: string;
}

export class CoinSerialResponseDto {
  status: 'ok';
  message: string;
  @ApiExample('1000000001')
  serial: string;
}
