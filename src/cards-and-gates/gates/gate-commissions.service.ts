import { Injectable } from '@nestjs/common';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money } from '../../platform/common/money';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import type { Pricing } from '../../platform/commissions/commissions.service';
import type { CommissionType } from '../../platform/commissions/fee';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { LedgerService } from '../../platform/ledger/ledger.service';
import type {
  CreateGateCommissionProfileDto,
  CreateGateProductRuleDto,
  CreateGateProviderRuleDto,
  GateCommissionProfileDto,
  GateCommissionRuleDto,
  GateProductRuleViewDto,
} from './dto/gates.dto';
import { GateProfileRow, GateRuleRow, GatesRepository } from './gates.repository';

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
  ) {}

  async createProfile(contractId: string, dto: CreateGateCommissionProfileDto): Promise<GateCommissionProfileDto> {
    return this.uow.run(async () => {
      if (!(await this.gates.contractExists(contractId))) throw new ApiError('exception.contract.not_found');
      if (!(await this.gates.provider(dto.gateProviderId))) throw new ApiError('exception.gate_provider.not_found');
      const row = await this.gates.insertProfile({
        contractId,
        providerId: dto.gateProviderId,
        name: dto.name ?? null,
        active: dto.active ?? true,
      });
      if (!row) throw new ApiError('exception.gate_commission_profile.exists');
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

  /**
   * The terms a gate payment is priced by: the gate rule in force for the payer's contract, the provider and the
   * product, as commission terms the commission service's `quote()` prices (the payer pays the fee on top), with
   * the coin that collects it. Undefined when no gate rule holds (the flow's own commission rule applies then).
   */
  async pricing(
    organizationId: string,
    providerId: string,
    productId: string,
    issuerId: string,
    settlement: string,
  ): Promise<Pricing | undefined> {
    const rule = await this.gates.ruleInForce(organizationId, providerId, productId);
    if (!rule) return undefined;
    const money = (v: string | null) => (v === null ? null : new Money(v));
    return {
      flow: 'gate_payment',
      terms: {
        ruleId: rule.id,
        payer: 'sender',
        conditions: [
          {
            id: rule.id,
            beginAmount: new Money(0),
            endAmount: null,
            value: {
              type: rule.type as CommissionType,
              percent: money(rule.value_percent),
              fixed: money(rule.value_fixed),
              rounding: rule.rounding,
              minFee: money(rule.min_fee),
            },
          },
        ],
      },
      collector: rule.collector === 'provider' ? settlement : await this.ledger.systemCoin(issuerId, 'commission'),
    };
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
      providerRules: (await this.gates.rules(row.id, 'provider')).map(toRule),
      createdAt: row.created_at.toISOString(),
    };
  }
}
