import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Expose, Transform } from 'class-transformer';
import { IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { BankAccountDto, BankDetailsDto } from '../../bank-accounts/dto/bank-account.dto';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount } from '../../../platform/common/money-validators';
import { CUSTOM_INFORMATION_MAX, OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto } from '../../../platform/common/paging.dto';
import {
  BankInfoDto,
  ClientCoinDto,
  CoinAlias,
  RequestFilterDto,
  RequestRecordDto,
  RequestStatuses,
  FAMILY_ONLY_REQUEST_STATUSES,
  RequestViewDto,
  SerialOrCoin,
} from '../../../platform/common/request-view.dto';
import { EnumList, Serial } from '../../../platform/common/validators';
import { LegType, OperationDto, OperationLegDto } from '../../../platform/ledger/dto/operation.dto';
import { familyTypeOf } from '../../../platform/ledger/operation-types';
import {
  Amount,
  ApiDateTime,
  ApiEnum,
  ApiExample,
  ApiOptionalUuid,
  ApiTextOrNull,
  ApiUuid,
  ApiUuidOrNull,
  Nested,
} from '../../../platform/common/dto-fields';

/** Reads a property from the family's name for it when the service's own is absent. */
const alias = (name: string) =>
  Transform(({ value, obj }: { value: unknown; obj: Record<string, unknown> }) => value ?? obj[name] ?? undefined);

/**
 * Bank details also under the family's names: `fullName` for accountHolder, `name` for bankName, `swift` for bic. The
 * family's `address` and `bankAccountNumber` are accepted and not kept (the IBAN names the account).
 */
export class WithdrawalBankDetailsDto extends BankDetailsDto {
  @Expose()
  @alias('fullName')
  declare accountHolder: string;

  @Expose()
  @alias('name')
  declare bankName?: string;

  @Expose()
  @alias('swift')
  declare bic?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: 'The family’s name for accountHolder' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  fullName?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: 'The family’s name for bankName' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 11, description: 'The family’s name for bic' })
  @IsOptional()
  @IsString()
  @MaxLength(11)
  swift?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 300, description: 'Accepted, not kept' })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  address?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 34, description: 'Accepted, not kept' })
  @IsOptional()
  @IsString()
  @MaxLength(34)
  bankAccountNumber?: string | null;
}

/** A withdrawal to a bank: from a coin, to one of its organization's bank accounts or to bank details given here (one of the two). */
export class BankWithdrawalDto extends OperationTextDto {
  /** The coin paid out from. */
  @Serial()
  @SerialOrCoin()
  coinSerial: string;

  @CoinAlias()
  coin?: string;

  /** A positive decimal with no more decimals than the currency allows. */
  @Amount('100.00')
  amount: string | number;

  /** One of the coin's organization's bank accounts (`/bank-accounts`); or give `bankDetails`. */
  @ApiOptionalUuid()
  @IsOptional()
  @IsUUID()
  bankAccountId?: string;

  /** Where to pay, when not to a saved bank account. */
  @Nested(() => WithdrawalBankDetailsDto, 'optional')
  bankDetails?: WithdrawalBankDetailsDto;
}

export const BANK_WITHDRAWAL_STATUSES = ['pending', 'processed', 'declined'] as const;
export const BANK_WITHDRAWAL_KINDS = ['direct', 'request'] as const;

/** The bank of a withdrawal as the family's withdrawal form names it: the bank, and who and which account is paid. */
export class WithdrawalBankInfoDto extends BankInfoDto {
  /** The account holder (`bankDetails.accountHolder`). */
  fullName: string;
  /** The IBAN paid to (`bankDetails.iban`). */
  iban: string;
}

/** The bank details a withdrawal was paid to, as they were: a bank account's. */
export class BankDetailsRecordDto extends PickType(BankAccountDto, ['iban', 'bic', 'accountHolder', 'bankName'] as const) {}

export const BANK_WITHDRAWAL_TRANSACTION_TYPES = ['hold', 'redeem', 'commission'] as const satisfies readonly LegType[];

/**
 * One of the transactions of a withdrawal's operation, in the shape of the family's transactions: a leg of the ledger
 * kernel, with its coins' owners and issuers' numbers, its kind and its times. A request's first transaction is its
 * hold, placed when it was requested; once accepted, the legs follow.
 */
export class BankWithdrawalTransactionDto extends OperationLegDto {
  @ApiProperty({ description: 'The hold’s id, or the leg’s debit entry’s' })
  declare id: string;
  /**
   * `hold`: the amount and the fee the request reserved on the coin, meant for the bank-settlement coin (captured when
   * accepted, released when declined: the withdrawal's status says which); `redeem`: the amount paid to the issuer's
   * bank-settlement coin; `commission`: the fee, to the issuer's commission coin.
   */
  @ApiEnum(BANK_WITHDRAWAL_TRANSACTION_TYPES, 'hold')
  declare type: LegType;
  @ApiAmount(10.1, 'Always positive: it leaves `from` (a hold: is reserved on it) for `to`')
  declare amount: JsonDecimal;
  /** The ledger's date of the hold or the entry: its operation's creation (the request's). */
  @ApiDateTime()
  declare createdAt: string;
  /** When it happened: a hold when placed, a leg when posted (a request's when it was accepted). */
  @ApiDateTime()
  declare performedAt: string;
  /** When it last changed: a hold when captured or released; a leg never changes. */
  @ApiDateTime()
  declare updatedAt: string;
}

export class BankWithdrawalRecordDto extends RequestRecordDto {
  /** `direct` (paid out at once by staff) or `request` (held until accepted or declined). */
  @ApiEnum(BANK_WITHDRAWAL_KINDS)
  kind: string;
  /** A request is `pending` (amount and fee held) until `processed` (paid out) or `declined` (hold released). */
  @ApiEnum(BANK_WITHDRAWAL_STATUSES)
  status: string;
  /** The status again, under the name the family's request screens read it by. */
  @ApiEnum(BANK_WITHDRAWAL_STATUSES)
  requestStatus: string;
  /** The withdrawal's business identifier: a number, also accepted in the decision routes' paths. */
  @ApiExample(1)
  requestIdentifier: number;
  @ApiUuid()
  organizationId: string;
  @ApiAmount(100, 'What reaches the bank account')
  amount: JsonDecimal;
  @ApiAmount(100, 'The family’s name for amount')
  cashAmount: JsonDecimal;
  /** The family's name for the account holder. */
  fullName: string;
  /** The coin paid out from, as the family's screens show it. */
  clientCoin: ClientCoinDto;
  /** The bank as the family's screens show it: name and BIC (also as `swift`); the rest is not kept (null). */
  bankInfo: BankInfoDto;
  @ApiAmount(1, 'The fee, quoted when the withdrawal was requested')
  commission: JsonDecimal;
  @ApiUuidOrNull()
  bankAccountId: string | null;
  bankDetails: BankDetailsRecordDto;
  /** Free text from the system or business user (release 4.10.0). */
  @ApiTextOrNull()
  override customInformation: string | null;
  /** The `bank_withdrawal` operation: pending while held, settled in place by the decision. */
  @ApiUuid()
  operationId: string;
  /** The operation's type in the family's words (`bank_redeem`: the service's `bank_withdrawal`, see FAMILY_TYPE_NAMES). */
  @ApiEnum([familyTypeOf('bank_withdrawal')])
  type: string;
  /** The IBAN paid to (`bankDetails.iban`), at the top level as the family's withdrawal records carry it. */
  iban: string;
  /**
   * The operation's transactions: a request's hold first, then, once it is accepted (or at once, paid out directly),
   * the payout and the fee. Never empty.
   */
  @ApiProperty({ type: () => BankWithdrawalTransactionDto, isArray: true, minItems: 1 })
  transactions: BankWithdrawalTransactionDto[];
  /** The family's sub-operations of an operation; a withdrawal has none (its fee is a leg of the same operation): empty. */
  @ApiProperty({ type: 'array', items: { type: 'object' }, maxItems: 0 })
  children: never[];
}

export class BankWithdrawalResultDto {
  status: 'ok';
  message: string;
  bankWithdrawal: BankWithdrawalRecordDto;
  /** The `bank_withdrawal` operation as it stands after this request. */
  process: OperationDto;
}

/**
 * The operation of a withdrawal made by `POST /bank-withdrawals`, with what the family's success screen reads of the
 * withdrawal: its `cashAmount` and `clientCoin` (the withdrawal's own number is `bankWithdrawal.requestIdentifier`), and
 * whom and where it pays (`fullName`, `bankInfo`).
 */
export class BankWithdrawalProcessDto extends OperationDto {
  @ApiAmount(100, 'What reaches the bank account')
  cashAmount: JsonDecimal;
  clientCoin: ClientCoinDto;
  /** The account holder paid to (`bankWithdrawal.fullName`). */
  fullName: string;
  /** Where the money goes, as the family's withdrawal form sent it. */
  bankInfo: WithdrawalBankInfoDto;
}

export class BankWithdrawalCreatedDto {
  status: 'ok';
  message: string;
  bankWithdrawal: BankWithdrawalRecordDto;
  process: BankWithdrawalProcessDto;
}

export class BankWithdrawalRecordResultDto {
  status: 'ok';
  message: string;
  bankWithdrawal: BankWithdrawalRecordDto;
}

export class BankWithdrawalFilterDto extends RequestFilterDto {
  @EnumList(BANK_WITHDRAWAL_STATUSES)
  statuses?: string[];

  /** The family's name for statuses; one status or a list (`error` and `rejected`, which no request has, match nothing). */
  @RequestStatuses([...BANK_WITHDRAWAL_STATUSES, ...FAMILY_ONLY_REQUEST_STATUSES])
  requestStatuses?: string[];

  @EnumList(BANK_WITHDRAWAL_KINDS)
  kinds?: string[];

  /** Withdrawals whose customInformation contains this text, case-insensitive (release 4.10.0). */
  @ApiPropertyOptional({ maxLength: CUSTOM_INFORMATION_MAX })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(CUSTOM_INFORMATION_MAX)
  customInformation?: string;
}

export class BankWithdrawalViewDto extends RequestViewDto {
  @Nested(() => BankWithdrawalFilterDto, 'optional')
  filter?: BankWithdrawalFilterDto;
}

export class BankWithdrawalPageDto extends PageDto {
  records: BankWithdrawalRecordDto[];
}
