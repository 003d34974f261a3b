import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { ApiAmount, IsAmount } from '../../../platform/common/money-validators';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { CoinAlias, SerialOrCoin } from '../../../platform/common/request-view.dto';
import { AsList, IsAfter, IsIsoDateTime, Omittable, Serial, UuidList } from '../../../platform/common/validators';
import { CommissionValueAnswerDto, CommissionValueDto, IsCommissionNumber } from '../../../platform/commissions/dto/commission-value.dto';
import { COMMISSION_TYPES, CommissionType, usesFixed, usesPercent } from '../../../platform/commissions/fee';
import { CoinDto } from '../../../money-movement/coins/dto/coin.dto';
import { NamedContractInfoDto } from '../../../platform/organizations/dto/organization.dto';
import {
  Amount,
  ApiDateTime,
  ApiDateTimeOrNull,
  ApiEnum,
  ApiExample,
  ApiOptionalUuid,
  ApiTextOrNull,
  ApiUuid,
  ApiUuidOrNull,
  Nested,
} from '../../../platform/common/dto-fields';

export const GATE_PROVIDER_TYPES = ['acquiring', 'billing', 'card_issuing', 'payout'] as const;
export const GATE_TRANSACTION_TYPES = ['payment', 'payout', 'card_issue', 'TOPUP', 'REDEEM'] as const;
/** The family's transaction types of a provider method (`txType`): TOPUP, money in, and REDEEM, money out to a card. */
export const GATE_METHOD_TX_TYPES = ['TOPUP', 'REDEEM'] as const;
export const GATE_TRANSACTION_STATUSES = ['initiated', 'provider_assigned', 'pending', 'processed', 'failure'] as const;
export const GATE_FIELD_TYPES = ['string', 'number', 'enum'] as const;
export const GATE_COLLECTORS = ['operator', 'provider'] as const;

const DECIMAL = /^\d{1,20}(\.\d{1,18})?$/;

/**
 * A provider's settings (SettingsFieldsReqDto): the simulated provider's knobs and the callback secret. At least
 * one field must be given (an empty object, or one whose fields are all absent, is a 400).
 */
export class SettingsFieldsReqDto {
  /** How long the provider takes to answer, 0 to 600,000 ms; null removes it (no delay). */
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: 600_000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600_000)
  latencyMs?: number | null;

  /** Amounts above this are refused by the provider; null removes the limit. */
  @ApiPropertyOptional({ type: String, nullable: true, example: '1000.00', pattern: DECIMAL.source })
  @IsOptional()
  @Matches(DECIMAL, { message: 'must be a non-negative decimal such as "1000.00"' })
  failAbove?: string | null;

  /** Amounts above this are accepted later: the provider answers pending, then calls back; null removes the limit. */
  @ApiPropertyOptional({ type: String, nullable: true, example: '500.00', pattern: DECIMAL.source })
  @IsOptional()
  @Matches(DECIMAL, { message: 'must be a non-negative decimal such as "500.00"' })
  asyncAbove?: string | null;

  /** The share of payments the provider refuses, 0 to 1; null removes it (none refused). */
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: 1 })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  failureRate?: number | null;

  /** The secret the provider signs its callbacks with (HMAC-SHA256 of the body, hex, in X-Gate-Signature). Write-only. */
  @ApiPropertyOptional({ writeOnly: true, minLength: 16, maxLength: 200 })
  @Omittable()
  @IsString()
  @MinLength(16)
  @MaxLength(200)
  secret?: string;
}

/** A setting as the family's gate-settings screen sends it: its name and the value typed in. */
export class GateSettingValueDto {
  @IsString()
  @MinLength(1)
  @MaxLength(40)
  name: string;

  /** Text or a number; null (or empty text) removes a knob. A secret's value is never answered back. */
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }], nullable: true, example: '250' })
  @Allow()
  value: unknown;
}

/**
 * `PATCH /gate-providers/{id}/settings`: the settings by name, as the family's screen sends them (`fields [{name,
 * value}]`, validated by the provider's own settings), or as properties (latencyMs, failAbove, …); both may be mixed.
 */
export class UpdateGateSettingsDto extends SettingsFieldsReqDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => GateSettingValueDto)
  @ApiPropertyOptional({ type: [GateSettingValueDto] })
  fields?: GateSettingValueDto[];
}

export class CreateGateProviderDto {
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiEnum(GATE_PROVIDER_TYPES)
  @IsIn(GATE_PROVIDER_TYPES)
  type: string;

  @IsOptional()
  @IsBoolean()
  active?: boolean;

  /** Without a secret one is generated; it is never answered, so set it when the provider must know it. */
  @Nested(() => SettingsFieldsReqDto, 'optional')
  settings?: SettingsFieldsReqDto;
}

/** A provider's settings as answered: never the secret. */
export class GateProviderSettingsDto {
  @ApiPropertyOptional()
  latencyMs?: number;
  @ApiPropertyOptional()
  failAbove?: string;
  @ApiPropertyOptional()
  asyncAbove?: string;
  @ApiPropertyOptional()
  failureRate?: number;
}

/** A transaction a provider takes through one of its ways (a product on sale): what the family's gate screens list. */
export class SupportedTransactionDto {
  /** The way: the product's name (a method is a product on sale). */
  paymentWay: string;
  /** A type POST /gate/transactions takes with it. */
  @ApiEnum(GATE_TRANSACTION_TYPES)
  transactionType: string;
}

/** The gate a provider runs on: here each provider is its own gate, named as the provider. */
export class GateNameDto {
  name: string;
}

/**
 * The provider as the family's organizations are shown: gate providers are not organizations in finapi, so this is the
 * provider itself, as `POST /organizations` lists it (type `gate_provider`, no identification, no contract).
 */
export class GateProviderOrganizationDto {
  /** The provider's id. */
  @ApiUuid()
  id: string;
  @ApiEnum(['gate_provider'])
  type: 'gate_provider';
  name: string;
  @ApiEnum(['not_available'])
  identificationStatus: 'not_available';
  /** `active`, or `blocked` while the provider is switched off. */
  @ApiEnum(['active', 'blocked'])
  status: 'active' | 'blocked';
  /** Always null: a provider follows no contract (its fees are priced by gate commission profiles). */
  @ApiProperty({ type: NamedContractInfoDto, nullable: true })
  contract_info: NamedContractInfoDto | null;
}

export class GateProviderDto {
  @ApiUuid()
  id: string;
  name: string;
  @ApiEnum(GATE_PROVIDER_TYPES)
  type: string;
  active: boolean;
  gate: GateNameDto;
  organization: GateProviderOrganizationDto;
  /** Per product on sale, each type the provider takes (an acquiring provider's products take TOPUP, money in). */
  @ApiProperty({ type: [SupportedTransactionDto] })
  supportedTransactions: SupportedTransactionDto[];
  settings: GateProviderSettingsDto;
  /** Always true: a provider has a callback secret (never shown). */
  hasSecret: boolean;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

export class GateProviderResponseDto {
  status: 'ok';
  message: string;
  gateProvider: GateProviderDto;
}

export class GateProviderListDto {
  status: 'ok';
  message: string;
  records: GateProviderDto[];
}

/** A provider's setting as the gate-settings screen lists it; a secret's value is never answered, only whether it is set. */
export class GateSettingFieldDto {
  name: string;
  label: string;
  @ApiEnum(['integer', 'decimal', 'rate', 'text'])
  type: string;
  /** The value; null when the knob is not set (its default applies) and, always, for a secret. */
  @ApiProperty({ oneOf: [{ type: 'string', nullable: true }, { type: 'number' }] })
  value: string | number | null;
  /** Write-only: its value is never answered. */
  secret: boolean;
  /** Whether it has a value (a secret always has one). */
  set: boolean;
}

export class GateSettingsResponseDto {
  status: 'ok';
  message: string;
  @ApiProperty({ type: [GateSettingFieldDto] })
  fields: GateSettingFieldDto[];
}

/** The answer to a change of settings: the provider and its settings as the screen lists them. */
export class GateSettingsChangedDto extends GateSettingsResponseDto {
  gateProvider: GateProviderDto;
}

/** A field the payer fills in for a product (a phone number, an account, a plan). */
export class GateProductFieldDto {
  @IsString()
  @Matches(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, { message: 'must be a field name: a letter, then letters, digits or _' })
  name: string;

  @ApiEnum(GATE_FIELD_TYPES)
  @IsIn(GATE_FIELD_TYPES)
  type: 'string' | 'number' | 'enum';

  @IsBoolean()
  required: boolean;

  /** The allowed values of an `enum` field. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  values?: string[];
}

export class CreateGateProductDto {
  @IsUUID()
  @ApiUuid()
  gateProviderId: string;

  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  /** The currency code the product is sold in. */
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'must be a currency code such as USD' })
  currency: string;

  /** Mandatory (section 2.3): the smallest amount a payment may have. */
  @ApiProperty({ example: '1.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsDefined({ message: 'is required' })
  @IsAmount()
  minAmount: string | number;

  /** Mandatory (section 2.3): the largest amount, not below minAmount. */
  @ApiProperty({ example: '500.00', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsDefined({ message: 'is required' })
  @IsAmount()
  maxAmount: string | number;

  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => GateProductFieldDto)
  @ApiPropertyOptional({ type: [GateProductFieldDto] })
  fields?: GateProductFieldDto[];
}

export class GateProductDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  gateProviderId: string;
  /** The product's name (release 4.10.0: in every view). */
  name: string;
  gateProviderName: string;
  currency: string;
  @ApiAmount(1)
  minAmount: JsonDecimal;
  @ApiAmount(500)
  maxAmount: JsonDecimal;
  active: boolean;
  fields: GateProductFieldDto[];
  @ApiDateTime()
  createdAt: string;
}

export class GateProductResponseDto {
  status: 'ok';
  message: string;
  product: GateProductDto;
}

export class GateProductListDto {
  status: 'ok';
  message: string;
  records: GateProductDto[];
}

/** A provider method as the family's web client names it: the provider and the way (the product's name). */
export class GateMethodRefDto {
  @IsUUID()
  @ApiUuid()
  gateProviderId: string;

  /** The product's name, as `POST /gate/methods/view` answers it. */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  way: string;
}

/**
 * A gate transaction: a payment to a product (`productId`, `coinSerial`, `type` payment | payout | card_issue), or
 * the family's top-up (`type` TOPUP) or withdrawal to a card (`type` REDEEM) through a provider method (`method`,
 * `coin`), whose payer's fields follow with `POST …/{id}/submit`.
 */
export class CreateGateTransactionDto {
  /** The product paid (payment, payout, card_issue); a TOPUP or REDEEM names its `method` instead. */
  @IsOptional()
  @IsUUID()
  @ApiOptionalUuid()
  productId?: string;

  /** The caller's coin: paying (amount + fee held until the provider answers, a REDEEM too), or credited by a TOPUP. */
  @Serial()
  @SerialOrCoin()
  coinSerial: string;

  @CoinAlias()
  coin?: string;

  @Amount('25.00')
  amount: string | number;

  @ApiEnum(GATE_TRANSACTION_TYPES)
  @IsIn(GATE_TRANSACTION_TYPES)
  type: 'payment' | 'payout' | 'card_issue' | 'TOPUP' | 'REDEEM';

  /** The provider method of a TOPUP or a REDEEM (`POST /gate/methods/view`). */
  @Nested(() => GateMethodRefDto, 'optional')
  method?: GateMethodRefDto;

  /** The product's fields, by name (an enum field takes one of its values); a TOPUP's come with its submit. */
  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  fields?: Record<string, unknown>;
}

/** `POST /gate/methods/view`: the provider methods a coin can use for a transaction type. */
export class GateMethodsViewDto {
  @Serial({ description: "The caller's coin" })
  serial: string;

  @ApiEnum(GATE_METHOD_TX_TYPES)
  @IsIn(GATE_METHOD_TX_TYPES)
  txType: string;
}

export class GateMethodProviderDto {
  @ApiUuid()
  id: string;
  name: string;
  gate: GateNameDto;
}

/** A provider method: a product on sale of an active provider that takes the transaction type, in the coin's currency. */
export class GateMethodDto {
  gateProvider: GateMethodProviderDto;
  /** The product's name: what `method.way` names. */
  way: string;
  @ApiUuid()
  productId: string;
  currency: string;
  @ApiAmount(1)
  minAmount: JsonDecimal;
  @ApiAmount(500)
  maxAmount: JsonDecimal;
}

export class GateMethodListDto {
  status: 'ok';
  message: string;
  records: GateMethodDto[];
}

/** `POST /gate/transactions/calculate`: the price of a transaction through a provider method, moving nothing. */
export class GateCalculateDto {
  @IsUUID()
  @ApiUuid()
  gateProviderId: string;

  /** The method's way; may be left out when the provider has one method for the coin. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  way?: string;

  @Serial({ description: "The caller's coin" })
  serial: string;

  @Amount('25.00')
  amount: string | number;

  @ApiEnum(GATE_METHOD_TX_TYPES)
  @IsIn(GATE_METHOD_TX_TYPES)
  txType: string;
}

export class GateCurrencyDto {
  @ApiExample('EUR')
  code: string;
  @ApiTextOrNull('€')
  symbol: string | null;
  /** The ISO 4217 numeric code, as the currency has it (null when it has none). */
  @ApiTextOrNull('978')
  digitalCode: string | null;
  @ApiExample('Euro')
  name: string;
  @ApiTextOrNull()
  description: string | null;
}

/** A gate transaction's price as the family's top-up form reads it. */
export class GateCalculationDto {
  status: 'ok';
  message: string;
  @ApiAmount(25.5, 'What the provider charges the payer (the card): the amount, plus the fee when the sender pays it')
  sourceAmount: JsonDecimal;
  @ApiAmount(25, 'What reaches the coin')
  amountToSend: JsonDecimal;
  @ApiAmount(0.5, 'The fee')
  commissionAmount: JsonDecimal;
  currency: GateCurrencyDto;
  @ApiUuid()
  gateProviderId: string;
  way: string;
}

/** A constraint a payer's field's value must match (a regular expression). */
export class PayerFieldConstraintDto {
  @ApiEnum(['regex'])
  type: string;
  regex: string;
  errorMessageKey: string;
}

/** A field the payer fills in: a field of the method's product. */
export class PayerFieldDto {
  name: string;
  label: string;
  /** The product does not require it. */
  optional: boolean;
  /** Always false: values are checked when submitted. */
  onlineCheck: boolean;
  @ApiProperty({ type: [PayerFieldConstraintDto] })
  constraints: PayerFieldConstraintDto[];
}

export class PayerFieldsOptionDto {
  /** The option's name, sent back as `optionName`: always `default` (a product has one set of fields). */
  name: string;
  @ApiProperty({ type: [PayerFieldDto] })
  fields: PayerFieldDto[];
}

export class PayerFieldsResponseDto {
  status: 'ok';
  message: string;
  @ApiProperty({ type: [PayerFieldsOptionDto] })
  options: PayerFieldsOptionDto[];
}

export class PayerFieldValueDto {
  @IsString()
  @MinLength(1)
  @MaxLength(40)
  name: string;

  /** Text or a number (a number field also takes its digits as text, as forms send them); null or empty leaves it out. */
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }], nullable: true })
  @Allow()
  value: unknown;
}

/** `POST /gate/transactions/{id}/submit`: the payer's fields of a TOPUP, which then goes to its provider. */
export class SubmitPayerDto {
  /** `default`, the option `…/payer-fields/` answers. */
  @IsString()
  @IsIn(['default'])
  optionName: string;

  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => PayerFieldValueDto)
  @ApiProperty({ type: [PayerFieldValueDto] })
  fields: PayerFieldValueDto[];
}

export class GateTransactionCoinIssuerDto {
  @ApiUuid()
  id: string;
  currency: string;
  @ApiTextOrNull()
  symbol: string | null;
}

/** The transaction's coin as the family's screens read it. */
export class GateTransactionCoinDto {
  serial: string;
  issuer: GateTransactionCoinIssuerDto;
}

/** The method a transaction went through: its provider and way (the product's name). */
export class GatePaymentMethodDto {
  gateProvider: GateMethodProviderDto;
  way: string;
}

export class GateTransactionDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  productId: string;
  @ApiUuid()
  gateProviderId: string;
  @ApiUuid()
  organizationId: string;
  coinSerial: string;
  @ApiEnum(GATE_TRANSACTION_TYPES)
  type: string;
  @ApiAmount(25)
  amount: JsonDecimal;
  @ApiAmount(0.5, 'The fee, paid by the payer on top of the amount')
  commission: JsonDecimal;
  currency: string;
  @ApiProperty({ type: 'object', additionalProperties: true })
  fields: Record<string, unknown>;
  /** initiated → provider_assigned → pending (the provider was called) → processed | failure. */
  @ApiEnum(GATE_TRANSACTION_STATUSES)
  status: string;
  /** The ledger operation holding, then moving (or releasing), the money. */
  @ApiUuidOrNull()
  operationId: string | null;
  @ApiTextOrNull()
  providerReference: string | null;
  /** What the provider answered besides (a virtual card: its id and masked number, and `smartCardId`, the smart card recorded for it). */
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true })
  providerData: Record<string, unknown> | null;
  @ApiTextOrNull()
  failureReason: string | null;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
  @ApiDateTimeOrNull()
  finishedAt: string | null;
  /** The family's names: the coin with its issuer, the method, the amounts and the operation. */
  coin: GateTransactionCoinDto;
  paymentMethod: GatePaymentMethodDto;
  @ApiAmount(25.5, 'What leaves the payer: for a TOPUP what the provider charges the card')
  sourceAmount: JsonDecimal;
  @ApiAmount(25, 'What reaches the payee: for a TOPUP what the coin receives')
  amountToSend: JsonDecimal;
  @ApiAmount(25, 'For a TOPUP what the coin receives, else the amount paid')
  finalAmount: JsonDecimal;
  /** `operationId`, as the family names it. */
  @ApiUuidOrNull()
  processId: string | null;
  /** The payer's fields as given (`fields`, by name), as the family names them. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  payerData: Record<string, unknown>;
}

export class GateTransactionResponseDto {
  status: 'ok';
  message: string;
  transaction: GateTransactionDto;
}

/**
 * A transaction as its creation and its submit answer the caller: the coin whole, as `GET /coins/{serial}` answers it
 * (its balance once the transaction was written). Views and callbacks keep to the coin's serial and issuer.
 */
export class GateOwnTransactionDto extends GateTransactionDto {
  @ApiProperty({ type: () => CoinDto })
  override coin: CoinDto;
}

export class GateOwnTransactionResponseDto {
  status: 'ok';
  message: string;
  transaction: GateOwnTransactionDto;
}

export class GateTransactionFilterDto {
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(5)
  @IsIn(GATE_TRANSACTION_STATUSES, { each: true })
  @ApiPropertyOptional({ type: [String], enum: GATE_TRANSACTION_STATUSES })
  statuses?: string[];

  @UuidList()
  productIds?: string[];
}

export class GateTransactionViewDto extends PageRequestDto {
  @Nested(() => GateTransactionFilterDto, 'optional')
  filter?: GateTransactionFilterDto;
}

export class GateTransactionPageDto extends PageDto {
  records: GateTransactionDto[];
}

/** A provider's asynchronous outcome, signed with its secret (X-Gate-Signature: hex HMAC-SHA256 of the raw body). */
export class GateCallbackDto {
  /** The provider's reference (or the service's transaction id). */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  reference: string;

  @ApiEnum(['processed', 'failure'])
  @IsIn(['processed', 'failure'])
  status: 'processed' | 'failure';

  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

export class GateCallbackResponseDto {
  status: 'ok';
  message: string;
  /** False when the outcome was already applied (a repeated callback changes nothing). */
  applied: boolean;
  transaction: GateTransactionDto;
}

export class CreateGateCommissionProfileDto {
  @IsUUID()
  @ApiUuid()
  gateProviderId: string;

  /**
   * The currency the profile prices (the family's `currencyCode`): one profile per contract, provider and currency.
   * Without it the profile holds for every currency; a profile of the payment's currency comes first.
   */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'must be a currency code such as USD' })
  @ApiPropertyOptional({ example: 'USD' })
  currencyCode?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

/** A provider rule: a fee on every product of the provider, over [beginDate, endDate) — endDate is mandatory (section 2.3). */
export class CreateGateProviderRuleDto extends CommissionValueDto {
  @ApiDateTime('2026-01-01T00:00:00Z')
  @IsIsoDateTime()
  beginDate: string;

  @ApiDateTime('2027-01-01T00:00:00Z')
  @IsDefined({ message: 'is required for a provider rule' })
  @IsIsoDateTime()
  @IsAfter('beginDate')
  endDate: string;

  /** Who keeps the fee: the operator (the issuer's commission coin) or the provider (with the payment). */
  @ApiEnum(GATE_COLLECTORS)
  @IsIn(GATE_COLLECTORS)
  collector: string;
}

/** A product rule: a fee on one product, beating the provider rule while both hold. */
export class CreateGateProductRuleDto extends CommissionValueDto {
  @IsUUID()
  @ApiUuid()
  productId: string;

  @ApiDateTime('2026-01-01T00:00:00Z')
  @IsIsoDateTime()
  beginDate: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @IsOptional()
  @IsIsoDateTime()
  @IsAfter('beginDate')
  endDate?: string | null;

  @ApiEnum(GATE_COLLECTORS)
  @IsIn(GATE_COLLECTORS)
  collector: string;
}

export class GateCommissionRuleDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  profileId: string;
  @ApiEnum(['provider', 'product'])
  kind: string;
  @ApiUuidOrNull()
  productId: string | null;
  commission: CommissionValueAnswerDto;
  @ApiEnum(GATE_COLLECTORS)
  collector: string;
  @ApiDateTime()
  beginDate: string;
  @ApiDateTimeOrNull()
  endDate: string | null;
  active: boolean;
}

/** The currency of a gate commission profile, as the family's contracts screen reads it. */
export class GateProfileCurrencyDto {
  @ApiExample('USD')
  code: string;
  @ApiTextOrNull('840')
  digitalCode: string | null;
  @ApiTextOrNull('$')
  symbol: string | null;
  name: string;
}

export class GateCommissionProfileDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  contractId: string;
  @ApiUuid()
  gateProviderId: string;
  @ApiTextOrNull()
  name: string | null;
  active: boolean;
  /** The currency it prices; null: every currency (a profile made without `currencyCode`). */
  @ApiProperty({ type: () => GateProfileCurrencyDto, nullable: true })
  providerCurrency: GateProfileCurrencyDto | null;
  /** Its provider rules, latest first. */
  providerRules: GateCommissionRuleDto[];
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

export class GateCommissionProfileResponseDto {
  status: 'ok';
  message: string;
  profile: GateCommissionProfileDto;
}

export class GateCommissionProfileListDto {
  status: 'ok';
  message: string;
  records: GateCommissionProfileDto[];
}

export class GateCommissionRuleResponseDto {
  status: 'ok';
  message: string;
  rule: GateCommissionRuleDto;
}

export class GateProductRuleFilterDto {
  @UuidList()
  productIds?: string[];
}

export class GateProductRuleViewDto extends PageRequestDto {
  @Nested(() => GateProductRuleFilterDto, 'optional')
  filter?: GateProductRuleFilterDto;
}

export class GateCommissionRulePageDto extends PageDto {
  records: GateCommissionRuleDto[];
}

/** A commission of a settings record: its type and the values the type uses (nulls for the others, as the form sends them). */
export class GateCommissionSettingValueDto {
  @ApiEnum(COMMISSION_TYPES)
  @IsIn(COMMISSION_TYPES)
  type: CommissionType;

  /** Percent of the amount, 0 to 100, an exact decimal; required by the types with a percent. */
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '1.5', nullable: true })
  @ValidateIf((o: GateCommissionSettingValueDto) => usesPercent(o.type) || (o.valuePercent !== undefined && o.valuePercent !== null))
  @IsDefined({ message: 'is required by this commission type' })
  @IsCommissionNumber(100)
  valuePercent?: string | number | null;

  /** A fixed amount in the profile's currency (no more decimals than it has); required by the types with a fixed part. */
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '0.50', nullable: true })
  @ValidateIf((o: GateCommissionSettingValueDto) => usesFixed(o.type) || (o.valueFixed !== undefined && o.valueFixed !== null))
  @IsDefined({ message: 'is required by this commission type' })
  @IsCommissionNumber()
  valueFixed?: string | number | null;
}

export const GATE_SETTING_TX_TYPES = ['TOPUP', 'REDEEM'] as const;
export const GATE_SETTING_COLLECTORS = ['TOTAL', 'PROVIDER'] as const;

/**
 * `POST …/commission-settings-records/set-up-commission-settings`: a transaction type's commissions, as the family's
 * gate-commission form sends them — the TOTAL commission the payer pays (priced by the commission service, on top of
 * the amount) and the PROVIDER commission the provider charges the operator out of it (recorded, not charged). The
 * same call changes them; a commission left out is removed.
 */
export class SetUpGateCommissionSettingsDto {
  @ApiEnum(GATE_SETTING_TX_TYPES)
  @IsIn(GATE_SETTING_TX_TYPES)
  txType: string;

  @IsDefined({ message: 'is required' })
  @Nested(() => GateCommissionSettingValueDto)
  totalCommission: GateCommissionSettingValueDto;

  @Nested(() => GateCommissionSettingValueDto, 'optional')
  providerCommission?: GateCommissionSettingValueDto;

  /** Whether the TOTAL commission prices payments now (default true). */
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

/** A commission value as the settings records answer it: only the values its type uses (the screen shows those present). */
export class GateSettingValueAnswerDto {
  @ApiEnum(COMMISSION_TYPES)
  type: string;
  @ApiPropertyOptional({ type: 'number', example: 1.5, description: 'Percent of the amount, an exact decimal' })
  valuePercent?: JsonDecimal;
  @ApiPropertyOptional({ type: 'number', example: 0.5, description: "A fixed amount in the profile's currency" })
  valueFixed?: JsonDecimal;
}

export class GateCommissionSettingRecordDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  gateCommissionProfileId: string;
  @ApiEnum(GATE_SETTING_TX_TYPES)
  txType: string;
  /** TOTAL: what the payer pays; PROVIDER: what the provider charges the operator out of it. */
  @ApiEnum(GATE_SETTING_COLLECTORS)
  collector: string;
  value: GateSettingValueAnswerDto;
  active: boolean;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

export class GateCommissionSettingListDto {
  status: 'ok';
  message: string;
  @ApiProperty({ type: [GateCommissionSettingRecordDto] })
  records: GateCommissionSettingRecordDto[];
}
