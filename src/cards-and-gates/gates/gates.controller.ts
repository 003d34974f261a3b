import { ApiHeader, ApiRequest, Body, Caller, Headers, Principal, Req, Route, Routes, UuidParam } from '../../platform/http';
import * as dto from './dto/gates.dto';
import { GateCommissionsService } from './gate-commissions.service';
import { GateTransactionsService } from './gate-transactions.service';
import { GatesService } from './gates.service';

const PROVIDER_VIEWER = { access: ['GATE_PROVIDER_VIEWER'] } as const;
const PROVIDER_MANAGER = { access: ['GATE_PROVIDER_MANAGER'] } as const;
const CREATOR = { access: ['GATE_TRANSACTION_CREATOR'] } as const;
const VIEWER = { access: ['GATE_TRANSACTION_VIEWER'] } as const;
const NO_PROVIDER = ['exception.gate_provider.not_found'] as const;
const NOT_CALLERS_COIN = ['exception.coin.not_found', "not the caller's"] as const;
const NO_TRANSACTION = ['exception.gate_transaction.not_found'] as const;

/** Outside payment providers (staff): a built-in simulated one stands for a real adapter. */
@Routes('gate-providers')
export class GateProvidersController {
  constructor(private readonly gates: GatesService) {}

  /**
   * Adds an outside payment provider. Without `settings.secret` a callback secret is generated, and it is never answered: set it when the
   * provider must know it.
   */
  @Route('POST', '', { ...PROVIDER_MANAGER, summary: 'Add a gate provider', errors: ['exception.gate_provider.name_taken'] })
  async createGateProvider(@Body() body: dto.CreateGateProviderDto): Promise<dto.GateProviderResponseDto> {
    return { status: 'ok', message: 'Gate provider added', gateProvider: await this.gates.createProvider(body) };
  }

  /** Every gate provider, active or not, with its settings but never its secret. */
  @Route('GET', '', { ...PROVIDER_VIEWER, summary: 'The gate providers' })
  async listGateProviders(): Promise<dto.GateProviderListDto> {
    return { status: 'ok', message: 'OK', records: await this.gates.providers() };
  }

  /** One gate provider with its settings; the callback secret is never answered (`hasSecret` says one is set). */
  @Route('GET', ':gateProviderId', { ...PROVIDER_VIEWER, summary: 'A gate provider (never its secret)', errors: NO_PROVIDER })
  async getGateProvider(@UuidParam('gateProviderId') id: string): Promise<dto.GateProviderResponseDto> {
    return { status: 'ok', message: 'OK', gateProvider: await this.gates.provider(id) };
  }

  /** Every setting the provider takes, as `fields [{name, label, type, value, secret, set}]`; a secret only as `set`, its value null. */
  @Route('GET', ':gateProviderId/settings', {
    ...PROVIDER_VIEWER,
    summary: "A gate provider's settings (secrets only as set)",
    errors: NO_PROVIDER,
  })
  async getGateProviderSettings(@UuidParam('gateProviderId') id: string): Promise<dto.GateSettingsResponseDto> {
    return { status: 'ok', message: 'OK', fields: await this.gates.settings(id) };
  }

  /**
   * Changes settings by name as the family's screen sends them (`fields [{name, value}]`) or as properties (latencyMs, failAbove,
   * asyncAbove, failureRate, secret). Nothing to change, an unknown name or a bad value is a 400 and changes nothing; null removes a knob.
   */
  @Route('PATCH', ':gateProviderId/settings', { ...PROVIDER_MANAGER, summary: "Change a gate provider's settings", errors: NO_PROVIDER })
  async updateGateProviderSettings(
    @UuidParam('gateProviderId') id: string,
    @Body() body: dto.UpdateGateSettingsDto,
    @Caller() caller: Principal,
  ): Promise<dto.GateSettingsChangedDto> {
    const gateProvider = await this.gates.updateSettings(caller, id, body);
    return { status: 'ok', message: 'Settings changed', gateProvider, fields: await this.gates.settings(id) };
  }
}

/** What is sold through the gates; every view carries the product's name (release 4.10.0). */
@Routes('gate/products', 'gate-products')
export class GateProductsController {
  constructor(private readonly gates: GatesService) {}

  /** A product a provider sells in a currency with the payer's fields; a payment outside its minAmount…maxAmount (mandatory) is refused. */
  @Route('POST', '', {
    access: ['GATE_PRODUCT_MANAGER'],
    summary: 'Add a gate product',
    errors: [...NO_PROVIDER, 'exception.currency.not_found', 'exception.gate_product.name_taken'],
  })
  async createGateProduct(@Body() body: dto.CreateGateProductDto): Promise<dto.GateProductResponseDto> {
    return { status: 'ok', message: 'Gate product added', product: await this.gates.createProduct(body) };
  }

  /** What a customer can pay through a gate now: the active products of active providers, by provider and product name. */
  @Route('GET', 'available', { ...CREATOR, summary: 'The gate products on sale' })
  async availableGateProducts(): Promise<dto.GateProductListDto> {
    return { status: 'ok', message: 'OK', records: await this.gates.products({ available: true }) };
  }

  /** Every product of a provider, those off sale included. */
  @Route('GET', 'gate-provider/:gateProviderId/view', {
    ...PROVIDER_VIEWER,
    summary: 'Every product of a gate provider (staff)',
    errors: NO_PROVIDER,
  })
  async viewGateProviderProducts(@UuidParam('gateProviderId') id: string): Promise<dto.GateProductListDto> {
    return { status: 'ok', message: 'OK', records: await this.gates.products({ providerId: id, available: false }) };
  }

  /** The products a customer can pay for through one provider now: active, of an active provider. */
  @Route('GET', 'gate-provider/:gateProviderId/available', {
    ...CREATOR,
    summary: "A gate provider's products on sale",
    errors: NO_PROVIDER,
  })
  async availableGateProviderProducts(@UuidParam('gateProviderId') id: string): Promise<dto.GateProductListDto> {
    return { status: 'ok', message: 'OK', records: await this.gates.products({ providerId: id, available: true }) };
  }
}

/** Payments through a gate: amount and fee held, the provider called after commit, settled or released on its outcome. */
@Routes('gate', 'gate-transactions')
export class GateTransactionsController {
  constructor(private readonly transactions: GateTransactionsService) {}

  /**
   * The methods the caller's coin (`serial`) can use for `txType` (TOPUP: in through an acquiring provider; REDEEM: out to a card through
   * a payout provider): each product on sale in its currency, as `{gateProvider {id, name, gate {name}}, way}` (way: the product's name).
   */
  @Route('POST', 'methods/view', { ...CREATOR, summary: 'The provider methods of a coin', status: 200, errors: [NOT_CALLERS_COIN] })
  async viewGateMethods(@Body() body: dto.GateMethodsViewDto, @Caller() caller: Principal): Promise<dto.GateMethodListDto> {
    return { status: 'ok', message: 'OK', records: await this.transactions.methods(caller, body) };
  }

  /**
   * Priced as its execution will be, moving nothing (`way` may be left out when the provider has one for the coin's currency):
   * `sourceAmount` is what the card is charged (TOPUP) or the coin pays (REDEEM), `amountToSend` what the coin or card receives,
   * `commissionAmount` the fee.
   */
  @Route('POST', 'transactions/calculate', {
    ...CREATOR,
    summary: 'Price a TOPUP or a REDEEM through a gate',
    status: 200,
    errors: [['exception.gate_product.not_found', 'no such method'], NOT_CALLERS_COIN],
  })
  calculateGateTransaction(@Body() body: dto.GateCalculateDto, @Caller() caller: Principal): Promise<dto.GateCalculationDto> {
    return this.transactions.calculate(caller, body);
  }

  /**
   * A payment to a product (`productId`, `coinSerial`, `type` payment | payout | card_issue) holds amount + fee and answers
   * `provider_assigned`: the provider is called after the commit (poll GET …/{id}, or use webhooks). A TOPUP through a provider `method`
   * (`coin`, `method {gateProviderId, way}`) answers `initiated`, moving nothing until `POST …/{id}/submit` sends its payer's fields; the
   * charge then credits the coin. A REDEEM (`type: REDEEM`, a payout method) holds amount + fee at once, answers `initiated`, and its
   * submit sends it to the provider, whose refusal gives it back.
   */
  @Route('POST', 'transactions', {
    ...CREATOR,
    summary: 'Pay, top up or withdraw through a gate',
    idempotent: { groupCommit: true },
    errors: [
      ['exception.gate_product.not_found', 'no such product or method'],
      NOT_CALLERS_COIN,
      'exception.coin.insufficient_funds',
      'exception.coin.inactive',
    ],
  })
  async createGateTransaction(
    @Body() body: dto.CreateGateTransactionDto,
    @Caller() caller: Principal,
  ): Promise<dto.GateOwnTransactionResponseDto> {
    return { status: 'ok', message: 'Gate transaction started', transaction: await this.transactions.create(caller, body) };
  }

  /** The caller's organization's gate payments, newest first, by status and product; staff with TRANSACTION_AUDITOR see everyone's. */
  @Route('POST', 'transactions/view', {
    ...VIEWER,
    summary: "Search the organization's gate transactions (every one for auditors)",
    status: 200,
  })
  viewGateTransactions(@Body() body: dto.GateTransactionViewDto, @Caller() caller: Principal): Promise<dto.GateTransactionPageDto> {
    return this.transactions.view(caller, body);
  }

  /** A gate payment: status, amount, fee, operation, provider reference (poll after `provider_assigned`); TRANSACTION_AUDITOR reads any. */
  @Route('GET', 'transactions/:id', { ...VIEWER, summary: 'A gate transaction', errors: NO_TRANSACTION })
  async getGateTransaction(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.GateTransactionResponseDto> {
    return { status: 'ok', message: 'OK', transaction: await this.transactions.get(caller, id) };
  }

  /** The fields the payer fills in (the product's), as one option named `default`, each with a pattern its value must match. */
  @Route('GET', 'transactions/:id/payer-fields', { ...VIEWER, summary: "A gate transaction's payer fields", errors: NO_TRANSACTION })
  async getGatePayerFields(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.PayerFieldsResponseDto> {
    return { status: 'ok', message: 'OK', options: await this.transactions.payerFields(caller, id) };
  }

  /**
   * The payer's fields (`optionName` default, `fields [{name, value}]`), checked against the product's, once: the transaction then goes to
   * its provider (`provider_assigned`); a TOPUP's charge credits the coin, a REDEEM's payout takes what was held.
   */
  @Route('POST', 'transactions/:id/submit', {
    ...CREATOR,
    summary: "Submit a TOPUP's or a REDEEM's payer fields",
    idempotent: true,
    status: 200,
    errors: [...NO_TRANSACTION, 'exception.gate_transaction.submitted'],
  })
  async submitGatePayer(
    @UuidParam('id') id: string,
    @Body() body: dto.SubmitPayerDto,
    @Caller() caller: Principal,
  ): Promise<dto.GateOwnTransactionResponseDto> {
    return { status: 'ok', message: 'Payer fields submitted', transaction: await this.transactions.submit(caller, id, body) };
  }

  /** A provider's asynchronous outcome, signed with its secret; applied once per transaction. */
  @Route('POST', 'callbacks/:gateProviderId', {
    access: 'public',
    summary: "A gate provider's callback",
    status: 200,
    errors: ['exception.gate.signature_invalid', ...NO_PROVIDER, ...NO_TRANSACTION],
  })
  @ApiHeader({ name: 'X-Gate-Signature', required: true, description: "Hex HMAC-SHA256 of the raw body with the provider's secret" })
  async gateProviderCallback(
    @UuidParam('gateProviderId') providerId: string,
    @Headers('x-gate-signature') signature: string | undefined,
    @Body() body: dto.GateCallbackDto,
    @Req() request: ApiRequest,
  ): Promise<dto.GateCallbackResponseDto> {
    const result = await this.transactions.callback(providerId, signature, request.rawBody ?? '', body);
    return { status: 'ok', message: result.applied ? 'Outcome applied' : 'Outcome already applied', ...result };
  }
}

const COMMISSION_VIEWER = { access: ['COMMISSION_VIEWER'] } as const;
const COMMISSION_MANAGER = { access: ['COMMISSION_MANAGER'] } as const;
const NO_PROFILE = ['exception.contract.not_found', 'exception.gate_commission_profile.not_found'] as const;

/** A contract's gate commissions: per provider, provider rules (endDate mandatory) and product rules. */
@Routes('contracts/:contractId/gate-commission-profiles', 'gate-commissions')
export class GateCommissionsController {
  constructor(private readonly commissions: GateCommissionsService) {}

  /** A profile for a provider and `currencyCode` (none: every currency), pricing the gate payments of the contract's organizations. */
  @Route('POST', '', {
    ...COMMISSION_MANAGER,
    summary: 'Add a gate commission profile',
    errors: ['exception.contract.not_found', ...NO_PROVIDER, 'exception.currency.not_found', 'exception.gate_commission_profile.exists'],
  })
  async createGateCommissionProfile(
    @UuidParam('contractId') contractId: string,
    @Body() body: dto.CreateGateCommissionProfileDto,
    @Caller() caller: Principal,
  ): Promise<dto.GateCommissionProfileResponseDto> {
    const profile = await this.commissions.createProfile(caller, contractId, body);
    return { status: 'ok', message: 'Gate commission profile added', profile };
  }

  /** A contract's gate commission profiles, one per provider and currency (`providerCurrency`), each with its provider rules. */
  @Route('GET', '', { ...COMMISSION_VIEWER, summary: "A contract's gate commission profiles", errors: ['exception.contract.not_found'] })
  async listGateCommissionProfiles(@UuidParam('contractId') contractId: string): Promise<dto.GateCommissionProfileListDto> {
    return { status: 'ok', message: 'OK', records: await this.commissions.profiles(contractId) };
  }

  /** Per transaction type, the TOTAL commission (the payer's) and the PROVIDER one (charged to the operator), with the values it uses. */
  @Route('GET', ':profileId/commission-settings-records', {
    ...COMMISSION_VIEWER,
    summary: "A gate commission profile's commission settings",
    errors: NO_PROFILE,
  })
  async listGateCommissionSettings(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') id: string,
  ): Promise<dto.GateCommissionSettingListDto> {
    return { status: 'ok', message: 'OK', records: await this.commissions.settings(contractId, id) };
  }

  /**
   * New or changed alike: `totalCommission` prices the payer's TOPUP or REDEEM (ahead of the provider rule, after a product rule),
   * `providerCommission` is recorded, a commission left out is removed. Answers the type's records.
   */
  @Route('POST', ':profileId/commission-settings-records/set-up-commission-settings', {
    ...COMMISSION_MANAGER,
    summary: "Set a transaction type's gate commissions",
    status: 200,
    errors: NO_PROFILE,
  })
  async setUpGateCommissionSettings(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') id: string,
    @Body() body: dto.SetUpGateCommissionSettingsDto,
    @Caller() caller: Principal,
  ): Promise<dto.GateCommissionSettingListDto> {
    const records = await this.commissions.setUpSettings(caller, contractId, id, body);
    return { status: 'ok', message: 'Commission settings set', records };
  }

  /** A gate commission profile with its provider rules (its product rules: `POST …/commission-product-rule/view`). */
  @Route('GET', ':profileId', { ...COMMISSION_VIEWER, summary: 'A gate commission profile with its provider rules', errors: NO_PROFILE })
  async getGateCommissionProfile(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') id: string,
  ): Promise<dto.GateCommissionProfileResponseDto> {
    return { status: 'ok', message: 'OK', profile: await this.commissions.profile(contractId, id) };
  }

  /** Deletes the profile with its provider and product rules and answers it as it was; gate payments it priced keep their fee. */
  @Route('DELETE', ':profileId', { ...COMMISSION_MANAGER, summary: 'Delete a gate commission profile and its rules', errors: NO_PROFILE })
  async deleteGateCommissionProfile(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') id: string,
  ): Promise<dto.GateCommissionProfileResponseDto> {
    return { status: 'ok', message: 'Gate commission profile deleted', profile: await this.commissions.deleteProfile(contractId, id) };
  }

  /** A fee on every product of the profile's provider over [beginDate, endDate) (endDate mandatory), collected by operator or provider. */
  @Route('POST', ':profileId/commission-provider-rule', {
    ...COMMISSION_MANAGER,
    summary: 'Add a provider commission rule',
    errors: NO_PROFILE,
  })
  async createGateProviderRule(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() body: dto.CreateGateProviderRuleDto,
  ): Promise<dto.GateCommissionRuleResponseDto> {
    return { status: 'ok', message: 'Provider rule added', rule: await this.commissions.addProviderRule(contractId, profileId, body) };
  }

  /** A fee on one product of the provider over [beginDate, endDate) (endDate optional), taken by `collector`; beats the provider rule. */
  @Route('POST', ':profileId/commission-product-rule', {
    ...COMMISSION_MANAGER,
    summary: 'Add a product commission rule',
    errors: [...NO_PROFILE, ['exception.gate_product.not_found', 'no such product of the profile’s provider']],
  })
  async createGateProductRule(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() body: dto.CreateGateProductRuleDto,
  ): Promise<dto.GateCommissionRuleResponseDto> {
    return { status: 'ok', message: 'Product rule added', rule: await this.commissions.addProductRule(contractId, profileId, body) };
  }

  /** The product rules of a gate commission profile, latest first; `filter.productIds` narrows them to some products. */
  @Route('POST', ':profileId/commission-product-rule/view', {
    ...COMMISSION_VIEWER,
    summary: "Search a gate commission profile's product rules",
    status: 200,
    errors: NO_PROFILE,
  })
  viewGateProductRules(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() body: dto.GateProductRuleViewDto,
  ): Promise<dto.GateCommissionRulePageDto> {
    return this.commissions.productRules(contractId, profileId, body);
  }
}
