import { Injectable } from '@nestjs/common';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money } from '../../platform/common/money';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import type { Pricing } from '../../platform/commissions/commissions.service';
import { CommissionCondition, CommissionType, usesFixed, usesPercent } from '../../platform/commissions/fee';
import type { Principal } from '../../platform/access/principal';
import { scaleOf } from '../../platform/common/money';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { LedgerService } from '../../platform/ledger/ledger.service';
import type {
  CreateGateCommissionProfileDto,
  CreateGateProductRuleDto,
  CreateGateProviderRuleDto,
  GateCommissionProfileDto,
  GateCommissionSettingRecordDto,
  GateCommissionSettingValueDto,
  SetUpGateCommissionSettingsDto,
  GateCommissionRuleDto,
  GateProductRuleViewDto,
} from './dto/gates.dto';
import { GateProfileRow, GateRuleRow, GateSettingRow, GatesRepository } from './gates.repository';

/** Values are stored with up to 18 decimals and answered as exact numbers. */
const VALUE_SCALE = 18;

function toRule(row: GateRuleRow): GateCommissionRuleDto {
  const value = (v: string | null) => (v === null ? null : amountOf(new Money(v), Math.min(VALUE_SCALE, new Money(v).decimalPlaces())));
  return {
    id: row.id,
    profileId: row.profile_id,
    kind: row.kind,
    productId: row.product_id,
    commission: {
      type: row.type,
      valuePercent: value(row.value_percent),
      valueFixed: value(row.value_fixed),
      rounding: row.rounding,
      minFee: value(row.min_fee),
    },
    collector: row.collector,
    beginDate: row.begin_date.toISOString(),
    endDate: row.end_date ? row.end_date.toISOString() : null,
    active: row.active,
  };
}

/**
 * Only the values the type uses, so the screen shows exactly those (a `zero` shows 0); a fixed value with the
 * decimals of the profile's currency.
 */
function toSetting(row: GateSettingRow, profile: GateProfileRow): GateCommissionSettingRecordDto {
  const decimals = (v: string) => Math.min(VALUE_SCALE, new Money(v).decimalPlaces());
  const currency = profile.currency_fraction === null ? 0 : scaleOf(profile.currency_fraction);
  const percent = (v: string) => amountOf(new Money(v), decimals(v));
  const fixed = (v: string) => amountOf(new Money(v), Math.max(currency, decimals(v)));
  return {
    id: row.id,
    gateCommissionProfileId: profile.id,
    txType: row.tx_type,
    collector: row.collector,
    value: {
      type: row.type,
      ...(row.value_percent !== null ? { valuePercent: percent(row.value_percent) } : {}),
      ...(row.value_fixed !== null ? { valueFixed: fixed(row.value_fixed) } : {}),
    },
    active: row.active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function settingDetails(v: { type: string; valuePercent: string | null; valueFixed: string | null }): Record<string, string> {
  return {
    type: v.type,
    ...(v.valuePercent !== null ? { valuePercent: v.valuePercent } : {}),
    ...(v.valueFixed !== null ? { valueFixed: v.valueFixed } : {}),
  };
}

/**
 * The gate commissions of a contract: per provider, a profile with provider rules (a fee on every product; their
 * end date is mandatory) and product rules (one product's fee, beating the provider rule while both hold). Each
 * rule says who collects the fee: the operator (the issuer's commission coin) or the provider (with the payment).
 */
@Injectable()
export class GateCommissionsService {
  constructor(
    private readonly gates: GatesRepository,
    private readonly ledger: LedgerService,
    private readonly uow: UnitOfWork,
    private readonly actions: UserActionsService,
  ) {}

  /**
   * A contract's gate commission profile for a provider and, with `currencyCode`, a currency: one per contract,
   * provider and currency (409 for a second). In the action log.
   */
  async createProfile(principal: Principal, contractId: string, dto: CreateGateCommissionProfileDto): Promise<GateCommissionProfileDto> {
    return this.uow.run(async () => {
      if (!(await this.gates.contractExists(contractId))) throw new ApiError('exception.contract.not_found');
      if (!(await this.gates.provider(dto.gateProviderId))) throw new ApiError('exception.gate_provider.not_found');
      const currencyId = dto.currencyCode === undefined ? null : await this.gates.currencyId(dto.currencyCode);
      if (currencyId === undefined) throw new ApiError('exception.currency.not_found');
      const row = await this.gates.insertProfile({
        contractId,
        providerId: dto.gateProviderId,
        currencyId,
        name: dto.name ?? null,
        active: dto.active ?? true,
      });
      if (!row) throw new ApiError('exception.gate_commission_profile.exists');
      await this.actions.record({
        userId: principal.userId,
        action: 'gate_commission_profile_created',
        details: { contractId, gateCommissionProfileId: row.id, gateProviderId: dto.gateProviderId, currency: row.currency_code },
      });
      return this.toProfile(row);
    });
  }

  async profiles(contractId: string): Promise<GateCommissionProfileDto[]> {
    if (!(await this.gates.contractExists(contractId))) throw new ApiError('exception.contract.not_found');
    return Promise.all((await this.gates.profiles(contractId)).map((p) => this.toProfile(p)));
  }

  async profile(contractId: string, id: string): Promise<GateCommissionProfileDto> {
    return this.toProfile(await this.find(contractId, id));
  }

  async deleteProfile(contractId: string, id: string): Promise<GateCommissionProfileDto> {
    return this.uow.run(async () => {
      const profile = await this.toProfile(await this.find(contractId, id));
      await this.gates.deleteProfile(contractId, id);
      return profile;
    });
  }

  async addProviderRule(contractId: string, profileId: string, dto: CreateGateProviderRuleDto): Promise<GateCommissionRuleDto> {
    return this.uow.run(async () => {
      await this.find(contractId, profileId);
      return toRule(
        await this.gates.insertRule({ profileId, kind: 'provider', productId: null, ...this.values(dto), endDate: dto.endDate }),
      );
    });
  }

  async addProductRule(contractId: string, profileId: string, dto: CreateGateProductRuleDto): Promise<GateCommissionRuleDto> {
    return this.uow.run(async () => {
      const profile = await this.find(contractId, profileId);
      const product = await this.gates.product(dto.productId);
      if (!product || product.gate_provider_id !== profile.gate_provider_id) throw new ApiError('exception.gate_product.not_found');
      return toRule(
        await this.gates.insertRule({
          profileId,
          kind: 'product',
          productId: dto.productId,
          ...this.values(dto),
          endDate: dto.endDate ?? null,
        }),
      );
    });
  }

  /** `POST …/commission-product-rule/view`: the profile's product rules (optionally of some products), latest first. */
  async productRules(contractId: string, profileId: string, dto: GateProductRuleViewDto): Promise<Page<GateCommissionRuleDto>> {
    await this.find(contractId, profileId);
    const rows = await this.gates.rules(profileId, 'product', dto.filter?.productIds);
    const { offset, limit } = pageWindow(dto);
    return pageOf(dto, rows.length, rows.slice(offset, offset + limit).map(toRule));
  }

  /** A profile's commission settings records: per transaction type, its TOTAL and PROVIDER commissions. */
  async settings(contractId: string, profileId: string): Promise<GateCommissionSettingRecordDto[]> {
    const profile = await this.find(contractId, profileId);
    return (await this.gates.settings(profileId)).map((row) => toSetting(row, profile));
  }

  /**
   * Sets a transaction type's commissions (the family's set-up call, for a new one and a change alike): the TOTAL
   * commission prices the payer's TOPUP or REDEEM through the commission service; the PROVIDER commission is what the
   * provider charges the operator out of it, recorded for reconciliation. A fixed value has no more decimals than the
   * profile's currency. Answers the type's records; in the action log.
   */
  async setUpSettings(
    principal: Principal,
    contractId: string,
    profileId: string,
    dto: SetUpGateCommissionSettingsDto,
  ): Promise<GateCommissionSettingRecordDto[]> {
    return this.uow.run(async () => {
      const profile = await this.find(contractId, profileId);
      const given = [
        ['TOTAL', 'totalCommission', dto.totalCommission],
        ['PROVIDER', 'providerCommission', dto.providerCommission],
      ] as const;
      const values = given.flatMap(([collector, field, value]) =>
        value ? [{ collector, ...this.settingValue(profile, field, value) }] : [],
      );
      const active = dto.active ?? true;
      await this.gates.setUpSettings(profileId, dto.txType, active, values);
      await this.actions.record({
        userId: principal.userId,
        action: 'gate_commission_settings_set',
        details: {
          contractId,
          gateCommissionProfileId: profileId,
          txType: dto.txType,
          active,
          ...Object.fromEntries(values.map((v) => [v.collector === 'TOTAL' ? 'totalCommission' : 'providerCommission', settingDetails(v)])),
        },
      });
      return (await this.gates.settings(profileId, dto.txType)).map((row) => toSetting(row, profile));
    });
  }

  /**
   * The terms a gate payment is priced by, as commission terms the commission service's `quote()` prices (the payer
   * pays the fee on top), with the coin that collects it: the product rule in force for the payer's contract, else
   * the TOTAL commission setting of the transaction type (a TOPUP or a REDEEM; collected by the operator), else the
   * provider rule. Undefined when none holds (the flow's own commission rule applies then).
   */
  async pricing(
    organizationId: string,
    providerId: string,
    productId: string,
    issuerId: string,
    settlement: string,
    txType?: string,
  ): Promise<Pricing | undefined> {
    const rule = await this.gates.ruleInForce(organizationId, providerId, productId);
    const setting =
      rule?.kind !== 'product' && txType ? await this.gates.settingInForce(organizationId, providerId, productId, txType) : undefined;
    const money = (v: string | null) => (v === null ? null : new Money(v));
    const terms = (id: string, value: CommissionCondition['value']): Pricing['terms'] => ({
      ruleId: id,
      payer: 'sender',
      conditions: [{ id, beginAmount: new Money(0), endAmount: null, value }],
    });
    if (setting) {
      const value = {
        type: setting.type as CommissionType,
        percent: money(setting.value_percent),
        fixed: money(setting.value_fixed),
        rounding: 'half_up' as const,
        minFee: null,
      };
      // No `serials`: a gate flow's limits are read in its plan, with its gate profile's (CommissionsService.limit).
      return {
        flow: 'gate_payment',
        terms: terms(setting.id, value),
        collector: await this.ledger.systemCoin(issuerId, 'commission'),
        limits: [],
        serials: [],
      };
    }
    if (!rule) return undefined;
    return {
      flow: 'gate_payment',
      terms: terms(rule.id, {
        type: rule.type as CommissionType,
        percent: money(rule.value_percent),
        fixed: money(rule.value_fixed),
        rounding: rule.rounding,
        minFee: money(rule.min_fee),
      }),
      collector: rule.collector === 'provider' ? settlement : await this.ledger.systemCoin(issuerId, 'commission'),
      limits: [],
      serials: [],
    };
  }

  /** A settings value as stored: the values its type uses, exact; a fixed one within the profile's currency's decimals. */
  private settingValue(profile: GateProfileRow, field: string, value: GateCommissionSettingValueDto) {
    const exact = (v: string | number | null | undefined) => (v === undefined || v === null ? null : new Money(String(v)).toFixed());
    const valueFixed = usesFixed(value.type) ? exact(value.valueFixed) : null;
    if (
      valueFixed !== null &&
      profile.currency_fraction !== null &&
      new Money(valueFixed).decimalPlaces() > scaleOf(profile.currency_fraction)
    ) {
      throw ApiError.invalid(
        `${field}.valueFixed`,
        `must have at most ${scaleOf(profile.currency_fraction)} decimals in ${profile.currency_code}`,
      );
    }
    return { type: value.type, valuePercent: usesPercent(value.type) ? exact(value.valuePercent) : null, valueFixed };
  }

  private values(dto: CreateGateProviderRuleDto | CreateGateProductRuleDto) {
    const text = (v: string | number | null | undefined) => (v === undefined || v === null ? null : new Money(String(v)).toFixed());
    return {
      type: dto.type,
      valuePercent: text(dto.valuePercent),
      valueFixed: text(dto.valueFixed),
      rounding: dto.rounding ?? 'half_up',
      minFee: text(dto.minFee),
      collector: dto.collector,
      beginDate: dto.beginDate,
    };
  }

  private async find(contractId: string, id: string): Promise<GateProfileRow> {
    const row = await this.gates.profile(contractId, id);
    if (!row) throw new ApiError('exception.gate_commission_profile.not_found');
    return row;
  }

  private async toProfile(row: GateProfileRow): Promise<GateCommissionProfileDto> {
    return {
      id: row.id,
      contractId: row.contract_id,
      gateProviderId: row.gate_provider_id,
      name: row.name,
      active: row.active,
      providerCurrency:
        row.currency_code === null
          ? null
          : { code: row.currency_code, digitalCode: row.currency_digital_code, symbol: row.currency_symbol, name: row.currency_name! },
      providerRules: (await this.gates.rules(row.id, 'provider')).map(toRule),
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    };
  }
}
