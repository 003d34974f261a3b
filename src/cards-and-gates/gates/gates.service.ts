import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { parseAmount, scaleOf } from '../../platform/common/money';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type { Principal } from '../../platform/access/principal';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import type {
  CreateGateProductDto,
  CreateGateProviderDto,
  GateProductDto,
  GateProviderDto,
  GateSettingFieldDto,
  SettingsFieldsReqDto,
  UpdateGateSettingsDto,
} from './dto/gates.dto';
import { ProductRow, ProviderRow, GatesRepository } from './gates.repository';
import { KnobChanges, ProviderSettings, settingFieldsOf } from './providers';

/** The provider types that take a TOPUP (money in: the provider charges the payer's card). */
export const TOPUP_PROVIDER_TYPES = ['acquiring'] as const;
/** The provider types that take a REDEEM (money out: the provider pays the amount to the payer's card). */
export const REDEEM_PROVIDER_TYPES = ['payout'] as const;

/** The types POST /gate/transactions takes with a product of a provider of this type. */
export function transactionTypesOf(providerType: string): string[] {
  if (providerType === 'card_issuing') return ['card_issue'];
  return [
    ...((TOPUP_PROVIDER_TYPES as readonly string[]).includes(providerType) ? ['TOPUP'] : []),
    ...((REDEEM_PROVIDER_TYPES as readonly string[]).includes(providerType) ? ['REDEEM'] : []),
    'payment',
    'payout',
  ];
}

/** A provider with what it takes through its products on sale (`products`: any products, those of others ignored). */
function toProvider(row: ProviderRow, products: ProductRow[]): GateProviderDto {
  const { latencyMs, failAbove, asyncAbove, failureRate } = row.settings;
  const settings = Object.fromEntries(Object.entries({ latencyMs, failAbove, asyncAbove, failureRate }).filter(([, v]) => v !== undefined));
  const ways = products.filter((p) => p.gate_provider_id === row.id && p.active).map((p) => p.name);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    active: row.active,
    gate: { name: row.name },
    organization: {
      id: row.id,
      type: 'gate_provider',
      name: row.name,
      identificationStatus: 'not_available',
      status: row.active ? 'active' : 'blocked',
      contract_info: null,
    },
    supportedTransactions: ways.flatMap((paymentWay) =>
      transactionTypesOf(row.type).map((transactionType) => ({ paymentWay, transactionType })),
    ),
    settings,
    hasSecret: true,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toProduct(row: ProductRow, fraction: string): GateProductDto {
  const scale = scaleOf(fraction);
  return {
    id: row.id,
    gateProviderId: row.gate_provider_id,
    name: row.name,
    gateProviderName: row.provider_name,
    currency: row.currency,
    minAmount: amountOf(row.min_amount, scale),
    maxAmount: amountOf(row.max_amount, scale),
    active: row.active,
    fields: row.fields,
    createdAt: row.created_at.toISOString(),
  };
}

/** The settings a provider keeps (the secret is stored apart and never answered). */
function settingsOf(dto: SettingsFieldsReqDto): KnobChanges {
  const { latencyMs, failAbove, asyncAbove, failureRate } = dto;
  return Object.fromEntries(Object.entries({ latencyMs, failAbove, asyncAbove, failureRate }).filter(([, v]) => v !== undefined));
}

/** Gate providers and the products sold through them (staff manage them; customers see what is on sale). */
@Injectable()
export class GatesService {
  constructor(
    private readonly gates: GatesRepository,
    private readonly uow: UnitOfWork,
    private readonly actions: UserActionsService,
  ) {}

  async createProvider(dto: CreateGateProviderDto): Promise<GateProviderDto> {
    const settings = dto.settings ?? {};
    const row = await this.gates.insertProvider({
      name: dto.name,
      type: dto.type,
      active: dto.active ?? true,
      settings: settingsOf(settings),
      secret: settings.secret ?? randomBytes(32).toString('base64url'),
    });
    if (!row) throw new ApiError('exception.gate_provider.name_taken');
    return toProvider(row, []);
  }

  async providers(): Promise<GateProviderDto[]> {
    const products = await this.gates.products({ available: false });
    return (await this.gates.providers()).map((row) => toProvider(row, products));
  }

  async provider(id: string): Promise<GateProviderDto> {
    const row = await this.gates.provider(id);
    if (!row) throw new ApiError('exception.gate_provider.not_found');
    return toProvider(row, await this.gates.products({ providerId: id, available: false }));
  }

  /** A provider's settings as the gate-settings screen lists them: every field it takes, a secret only as set. */
  async settings(id: string): Promise<GateSettingFieldDto[]> {
    const row = await this.gates.provider(id);
    if (!row) throw new ApiError('exception.gate_provider.not_found');
    return settingFieldsOf(row.type).map((field) => {
      const value = field.secret ? null : (row.settings[field.name as keyof ProviderSettings] ?? null);
      return { name: field.name, label: field.label, type: field.type, value, secret: field.secret, set: field.secret || value !== null };
    });
  }

  /**
   * Changes some settings, given as properties or as the screen's `fields [{name, value}]` (checked against the
   * provider's own settings: an unknown name, a bad value or a name given twice is a 400 naming it). Nothing given is a
   * 400 (section 7). The change is in the action log, by name only: no value, so never a secret.
   */
  async updateSettings(principal: Principal, id: string, dto: UpdateGateSettingsDto): Promise<GateProviderDto> {
    return this.uow.run(async () => {
      const current = await this.gates.provider(id);
      if (!current) throw new ApiError('exception.gate_provider.not_found');
      const { fields, ...properties } = dto;
      const changes: Record<string, unknown> = Object.fromEntries(Object.entries(properties).filter(([, v]) => v !== undefined));
      const known = settingFieldsOf(current.type);
      (fields ?? []).forEach((given, i) => {
        const field = known.find((f) => f.name === given.name);
        if (!field)
          throw ApiError.invalid(`fields[${i}].name`, `is not a setting of this provider: ${known.map((f) => f.name).join(', ')}`);
        if (given.name in changes) throw ApiError.invalid(`fields[${i}].name`, `gives ${given.name} twice`);
        const parsed = field.parse(given.value);
        if ('problem' in parsed) throw ApiError.invalid(`fields[${i}].value`, `(${given.name}) ${parsed.problem}`);
        changes[given.name] = parsed.value;
      });
      if (!Object.keys(changes).length) {
        throw ApiError.invalid('settings', 'must set at least one of latencyMs, failAbove, asyncAbove, failureRate, secret');
      }
      if (changes.secret === null) throw ApiError.invalid('secret', 'cannot be removed: give a new secret of 16 to 200 characters');
      const { secret, ...knobs } = changes;
      const row = await this.gates.updateProvider(id, settingsOf(knobs as SettingsFieldsReqDto), secret as string | undefined);
      if (!row) throw new ApiError('exception.gate_provider.not_found');
      await this.actions.record({
        userId: principal.userId,
        action: 'gate_provider_settings_changed',
        details: { gateProviderId: id, settings: Object.keys(changes).sort() },
      });
      return toProvider(row, await this.gates.products({ providerId: id, available: false }));
    });
  }

  async createProduct(dto: CreateGateProductDto): Promise<GateProductDto> {
    return this.uow.run(async () => {
      if (!(await this.gates.provider(dto.gateProviderId))) throw new ApiError('exception.gate_provider.not_found');
      const currencyId = await this.gates.currencyId(dto.currency);
      if (!currencyId) throw new ApiError('exception.currency.not_found');
      const fraction = await this.fractionOf(currencyId);
      const scale = scaleOf(fraction);
      const min = parseAmount(dto.minAmount, scale, 'minAmount');
      const max = parseAmount(dto.maxAmount, scale, 'maxAmount');
      if (max.lt(min)) throw ApiError.invalid('maxAmount', 'must not be below minAmount');
      for (const field of dto.fields ?? []) {
        if (field.type === 'enum' && !field.values?.length)
          throw ApiError.invalid('fields', `${field.name}: an enum field needs its values`);
      }
      const id = await this.gates.insertProduct({
        providerId: dto.gateProviderId,
        name: dto.name,
        currencyId,
        minAmount: min.toFixed(),
        maxAmount: max.toFixed(),
        active: dto.active ?? true,
        fields: (dto.fields ?? []).map((f) => ({
          name: f.name,
          type: f.type,
          required: f.required,
          ...(f.values ? { values: f.values } : {}),
        })),
      });
      if (!id) throw new ApiError('exception.gate_product.name_taken');
      return toProduct((await this.gates.product(id))!, fraction);
    });
  }

  /** Products on sale (an active product of an active provider), optionally of one provider; or all of a provider. */
  async products(filter: { providerId?: string; available: boolean }): Promise<GateProductDto[]> {
    if (filter.providerId && !(await this.gates.provider(filter.providerId))) throw new ApiError('exception.gate_provider.not_found');
    const rows = await this.gates.products(filter);
    const fractions = new Map<string, string>();
    const out: GateProductDto[] = [];
    for (const row of rows) {
      if (!fractions.has(row.currency_id)) fractions.set(row.currency_id, await this.fractionOf(row.currency_id));
      out.push(toProduct(row, fractions.get(row.currency_id)!));
    }
    return out;
  }

  private async fractionOf(currencyId: string): Promise<string> {
    return (await this.gates.fraction(currencyId)) ?? '100';
  }
}
