import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType, PickType } from '@nestjs/swagger';
import type { JsonDecimal } from '../../common/json-decimal';
import { ApiAmount } from '../../common/money-validators';
import { SERIAL_PATTERN } from '../../common/validators';
import { ROLES } from '../../access/permissions';
import { OPERATION_STATUSES, OPERATION_TYPE_NAMES } from '../operation-types';
import { ApiDateTime, ApiEnum, ApiExample, ApiTextOrNull, ApiUuid, ApiUuidOrNull } from '../../common/dto-fields';

export const COIN_TYPES = ['client', 'system'] as const;
export type CoinType = (typeof COIN_TYPES)[number];

/** The issuer of a coin: its serial number, its currency's code and symbol. */
export class IssuerRefDto {
  @ApiUuid()
  id: string;
  /** The issuer's serial number. */
  @ApiProperty({ type: 'integer', example: 1 })
  sn: number;
  @ApiExample('USD')
  currency: string;
  @ApiTextOrNull('$')
  symbol: string | null;
}

/**
 * A coin on one side of an operation, of a leg or of an exchange's side, as the family's screens show it. Of another
 * organization's coin this is all an answer says: its name and its owner's id and name, never their contact.
 */
export class OperationCoinDto {
  @ApiProperty({ example: '1000000001', pattern: SERIAL_PATTERN.source })
  serial: string;
  /** The coin's name, as its owner named it (a system coin's is the service's). */
  @ApiExample('Wallet')
  name: string;
  /** The organization that owns the coin. */
  @ApiUuid()
  organizationId: string;
  /** Its name (the operator's for a system coin). */
  organizationName: string;
  /** True for a system coin: a reserve, the commission coin, a settlement coin… never a customer's. */
  technical: boolean;
  @ApiEnum(COIN_TYPES)
  type: CoinType;
  issuer: IssuerRefDto;
}

/** The organization on one side of an operation. Contact fields the service does not know are left out, never null. */
export class OperationPartyDto {
  @ApiUuid()
  organizationId: string;
  fullName: string;
  @ApiPropertyOptional({ format: 'email' })
  email?: string;
  @ApiPropertyOptional({ example: '+37060000000' })
  phoneNumber?: string;
}

/**
 * What a leg is, in the family's words: `issue` (out of an issuer's bank-settlement coin: money coming in),
 * `redeem` (into it: money going out), `commission` (a fee, into an issuer's commission coin), `reversal` and
 * `commission_reversal` (the legs of a reversal: a fee given back is the latter), `transfer` (any other); and `hold`,
 * an amount a pending operation reserves on a coin before its legs are posted (a withdrawal request's first).
 */
export const LEG_TYPES = ['transfer', 'commission', 'issue', 'redeem', 'reversal', 'commission_reversal', 'hold'] as const;
export type LegType = (typeof LEG_TYPES)[number];

/** One leg of an operation ("transaction"): an amount moving from one coin to another of the same currency. */
export class OperationLegDto {
  /** The leg's debit entry. */
  id: string;
  @ApiEnum(LEG_TYPES, 'transfer')
  type: LegType;
  @ApiAmount(10, 'Always positive: it leaves `from` and enters `to`')
  amount: JsonDecimal;
  /** The issuer of the coin the amount leaves. */
  issuer: IssuerRefDto;
  from: OperationCoinDto;
  to: OperationCoinDto;
  /** When the amount moved. */
  @ApiDateTime()
  performedAt: string;
  /** A leg never changes once written: its `performedAt`. */
  @ApiDateTime()
  updatedAt: string;
  /** The same instant as `performedAt`. */
  @ApiDateTime()
  createdAt: string;
}

export const EXCHANGE_SIDE_TYPES = ['withdraw_exchange_transaction', 'topup_exchange_transaction'] as const;
export type ExchangeSideType = (typeof EXCHANGE_SIDE_TYPES)[number];

/**
 * One side of an exchange, as the family's screens read an exchange's `children`: first the sold side
 * (`withdraw_exchange_transaction`: the coin sold from, `outgoingAmount` what was sold, the fee not included), then
 * the bought side (`topup_exchange_transaction`: the coin bought into, `incomingAmount` what it received).
 */
export class OperationChildDto {
  /** The side's main leg (its debit entry). */
  id: string;
  @ApiEnum(EXCHANGE_SIDE_TYPES)
  type: ExchangeSideType;
  /** The operation's status. */
  @ApiEnum(OPERATION_STATUSES, 'processed')
  status: string;
  /** The customer's coin of this side. */
  coin: OperationCoinDto;
  @ApiProperty({
    type: 'number',
    nullable: true,
    example: 100,
    description:
      'What was sold from the coin, the fee paid on top not included; null on the bought side (an exact decimal as a JSON number)',
  })
  outgoingAmount: JsonDecimal | null;
  @ApiProperty({
    type: 'number',
    nullable: true,
    example: 108.5,
    description: 'What the coin received; null on the sold side (an exact decimal as a JSON number)',
  })
  incomingAmount: JsonDecimal | null;
  @ApiDateTime()
  createdAt: string;
  /** The operation's `updatedAt`. */
  @ApiDateTime()
  updatedAt: string;
  /** This side's legs: on the sold side those out of its coin (the fee's too), on the bought side the one into it. */
  transactions: OperationLegDto[];
  /** Always empty: a side has no sides. */
  @ApiProperty({ type: 'array', items: { type: 'object' }, maxItems: 0, example: [] })
  children: never[];
}

/** The user who posted an operation, and the role they acted as. */
export class OperationCreatorDto {
  @ApiUuid()
  id: string;
  /** Null for an operation posted before roles were kept. */
  @ApiProperty({ type: String, nullable: true, enum: ROLES })
  role: string | null;
}

/** An operation ("process"): one money movement and its legs. */
export class OperationDto {
  @ApiUuid()
  id: string;
  @ApiEnum(OPERATION_TYPE_NAMES, 'client_transaction_transfer')
  type: string;
  @ApiEnum(OPERATION_STATUSES, 'processed')
  status: string;
  /** The Idempotency-Key the operation was created with, if any. */
  @ApiTextOrNull()
  requestIdentifier: string | null;
  @ApiTextOrNull()
  requestStatus: string | null;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
  @ApiTextOrNull()
  description: string | null;
  /** Free text from the system or business user (release 4.10.0). */
  @ApiTextOrNull()
  customInformation: string | null;
  @ApiAmount(10, 'What the payer asked to move')
  amount: JsonDecimal;
  @ApiAmount(0, "The operator's fee")
  commission: JsonDecimal;
  /** Currency code of `amount` and `commission`. */
  @ApiExample('USD')
  currency: string;
  @ApiProperty({ type: () => OperationCoinDto, nullable: true })
  from: OperationCoinDto | null;
  @ApiProperty({ type: () => OperationCoinDto, nullable: true })
  to: OperationCoinDto | null;
  @ApiProperty({ type: () => OperationPartyDto, nullable: true })
  sender: OperationPartyDto | null;
  @ApiProperty({ type: () => OperationPartyDto, nullable: true })
  recipient: OperationPartyDto | null;
  /** For a reversal: the operation it reverses. */
  @ApiUuidOrNull()
  reversalOf: string | null;
  /** Who posted it (a staff member for a top-up, a reversal…; the requester for a request later decided); null for the service's own jobs. */
  @ApiProperty({ type: () => OperationCreatorDto, nullable: true })
  createdBy: OperationCreatorDto | null;
  /** The legs: what moved from which coin to which. */
  transactions: OperationLegDto[];
  /** An exchange's two sides, the sold then the bought; empty for any other operation. */
  @ApiProperty({ type: () => OperationChildDto, isArray: true })
  children: OperationChildDto[];
}

/** The answer of a request that moved money, and of reading one operation. */
export class OperationResultDto {
  status: 'ok';
  message: string;
  process: OperationDto;
}

/** Amounts of an operation from each side, as the family's history shows them (in the currency of each side's coin). */
export class OperationAmountDetailsDto {
  @ApiAmount(10.5, 'What left the sender’s coin: the amount and the fee the sender paid')
  senderGrossAmount: JsonDecimal;
  @ApiAmount(10, 'What the sender sent, without the fee')
  senderNetAmount: JsonDecimal;
  @ApiAmount(0.5, 'The fee the sender paid')
  senderFee: JsonDecimal;
  @ApiAmount(10, 'What was sent to the recipient, before the fee the recipient paid')
  recipientGrossAmount: JsonDecimal;
  @ApiAmount(10, 'What the recipient’s coin received')
  recipientNetAmount: JsonDecimal;
  @ApiAmount(0, 'The fee the recipient paid')
  recipientFee: JsonDecimal;
}

const nullableAmount = (example: number, description: string) =>
  ApiProperty({ type: 'number', nullable: true, example, description: `${description} (an exact decimal as a JSON number)` });

/**
 * What the family's screens read of an operation besides the operation itself: its customer's coin and what moved on
 * it, the invoice or point of sale it paid, the caller's category. One shape for an operation record and for each of
 * an exchange's sides (`children`), so a screen reads a side as it reads a record.
 */
export class OperationRecordFieldsDto {
  /** The customer's coin of the operation: the caller's own where it has one, else the first customer coin; null when none is a customer's. */
  @ApiProperty({ type: () => OperationCoinDto, nullable: true })
  clientCoin: OperationCoinDto | null;
  @ApiProperty({
    type: () => OperationAmountDetailsDto,
    nullable: true,
    description: 'Null for an operation without both sides',
  })
  operationAmountDetails: OperationAmountDetailsDto | null;
  @nullableAmount(
    10,
    'What the recipient’s coin kept: the amount less any fee the recipient paid; the amount when the operation has one side',
  )
  netAmount: JsonDecimal | null;
  @nullableAmount(100, 'The cash handed over or paid in, or the amount paid to or from a bank; null for a movement between coins')
  cashAmount: JsonDecimal | null;
  @nullableAmount(10, 'The amount of the invoice or merchant payment; null for other operations')
  invoiceAmount: JsonDecimal | null;
  /** The invoice this operation paid (its `identifier`); null for other operations. */
  @ApiUuidOrNull()
  invoiceIdentifier: string | null;
  /** The merchant's coin an invoice or merchant payment paid into; null for other operations. */
  @ApiTextOrNull('1000000001')
  merchantCoinSerial: string | null;
  /** The name of the point of sale a merchant payment was taken at; null for other operations. */
  @ApiTextOrNull()
  posCompanyName: string | null;
  /** The caller's category the operation is tagged with (the first by name), and its picture; null when untagged. */
  @ApiTextOrNull()
  categoryName: string | null;
  @ApiTextOrNull()
  categoryImageLink: string | null;
}

/**
 * One side of an exchange as a record: the side (OperationChildDto) with the exchange's own fields and, for its coin,
 * what a record says (its `from`/`to` are the side's main leg's, `amount` what the side sold or bought, `commission` the
 * fee on the sold side, 0 on the bought one).
 */
export class OperationRecordChildDto extends IntersectionType(
  OperationChildDto,
  IntersectionType(
    PickType(OperationDto, ['requestIdentifier', 'requestStatus', 'description', 'sender', 'recipient'] as const),
    OperationRecordFieldsDto,
  ),
) {
  @ApiAmount(100, 'What the side sold (the fee not included) or bought')
  amount: JsonDecimal;
  @ApiAmount(0, 'The exchange’s fee on the sold side; 0 on the bought side')
  commission: JsonDecimal;
  /** The side's main leg's coins: the sold coin and where it went, or where the bought amount came from and the bought coin. */
  from: OperationCoinDto;
  to: OperationCoinDto;
}

/**
 * An operation as the family's records show it: the operation (OperationDto) and what its screens read of it
 * (OperationRecordFieldsDto), with `coin` and the amounts that moved on it.
 */
export class OperationRecordDto extends IntersectionType(OmitType(OperationDto, ['children'] as const), OperationRecordFieldsDto) {
  /** The coin `incomingAmount` and `outgoingAmount` are of: `clientCoin`, else the paying coin; null only when the operation names no coin. */
  @ApiProperty({ type: () => OperationCoinDto, nullable: true })
  coin: OperationCoinDto | null;
  @nullableAmount(10, 'What entered `coin`, net of any fee it paid; null when `coin` paid')
  incomingAmount: JsonDecimal | null;
  @nullableAmount(10, 'What left `coin`, the fee paid on top not included; null when `coin` received')
  outgoingAmount: JsonDecimal | null;
  /** An exchange's sold and bought sides, each as a record; empty for any other operation. */
  @ApiProperty({ type: () => OperationRecordChildDto, isArray: true })
  children: OperationRecordChildDto[];
}

/** The answer of a request that moved money, with its operation as the family's records show it. */
export class OperationRecordResultDto {
  status: 'ok';
  message: string;
  process: OperationRecordDto;
}
