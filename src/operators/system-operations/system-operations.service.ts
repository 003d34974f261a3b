import { Injectable } from '@nestjs/common';
import { CoinsService } from '../../money-movement/coins/coins.service';
import type { StaffCoinDto } from '../../money-movement/coins/dto/coin.dto';
import { ApiError } from '../../platform/common/api-error';
import { parseAmount, scaleOf } from '../../platform/common/money';
import { nameSortOf, Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import type { OperationRecordDto } from '../../platform/ledger/dto/operation.dto';
import { toOperationRecord } from '../../platform/ledger/operation-record';
import { LedgerService } from '../../platform/ledger/ledger.service';
import type { SystemCoinKind } from '../../platform/ledger/ledger.types';
import type { OperationType } from '../../platform/ledger/operation-types';
import type { SystemOperationDto, SystemOrganizationRecordDto, SystemOrganizationViewDto } from './dto/system-operations.dto';
import { ProviderCoinRow, SystemOperationsRepository, SystemOrganizationRow } from './system-operations.repository';

/** The four system operations: which way the money goes between a system coin of the issuer and the named coin. */
const OPERATIONS = {
  cash_input: { system: 'cash_desk', toNamed: true, label: 'Cash input' },
  cash_collect: { system: 'cash_desk', toNamed: false, label: 'Cash collect' },
  cash_investment: { system: 'bank_settlement', toNamed: true, label: 'Investment' },
  gate_investment: { system: 'bank_settlement', toNamed: true, label: 'Gate investment' },
} as const satisfies Record<string, { system: SystemCoinKind; toNamed: boolean; label: string }>;

export type SystemOperationType = keyof typeof OPERATIONS & OperationType;

/**
 * System operations (the family's `system-operations` screen): staff move money between the operator's system coins and
 * the coins of providers — a cash desk's cash coins and the gate providers' settlement coins. Cash comes into a desk
 * from the issuer's `cash_desk` coin (the operator's vault) and is collected back into it; investments come from the
 * issuer's bank-settlement coin. Each is one ledger operation, processed at once; the desk's coin is a client coin, so
 * the kernel never lets a collect take more than it holds, and the kernel records the staff member's `money_moved`.
 */
@Injectable()
export class SystemOperationsService {
  constructor(
    private readonly repository: SystemOperationsRepository,
    private readonly ledger: LedgerService,
    private readonly coins: CoinsService,
  ) {}

  /** The operation as the family's records show it: staff have no coin in it, so its client coin is its first customer coin. */
  async move(type: SystemOperationType, dto: SystemOperationDto): Promise<OperationRecordDto> {
    const operation = OPERATIONS[type];
    const coin = await this.repository.coin(dto.serial);
    if (!coin) throw new ApiError('exception.coin.not_found', `No coin ${dto.serial}`);
    if (type === 'gate_investment' ? !isGateSettlement(coin) : !isCashCoin(coin)) {
      throw ApiError.invalid(
        'serial',
        type === 'gate_investment' ? "must be a gate provider's settlement coin" : "must be a cash desk's cash coin",
      );
    }
    const system = await this.ledger.systemCoin(coin.issuer_id, operation.system);
    const [from, to] = operation.toNamed ? [system, coin.serial] : [coin.serial, system];
    const posted = await this.ledger.execute({
      type,
      coins: [from, to],
      plan: (locked) => {
        const named = locked.coins.get(coin.serial)!;
        if (!named.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} or its currency is inactive`);
        const amount = parseAmount(dto.amount, scaleOf(named.fraction));
        return {
          legs: [{ from, to, amount }],
          meta: {
            amount,
            fromCoin: from,
            toCoin: to,
            description: dto.description ?? `${operation.label} by ${dto.fullName}`,
            customInformation: dto.customInformation ?? null,
            details: { fullName: dto.fullName },
          },
        };
      },
    });
    return toOperationRecord(posted!, { organizationId: null });
  }

  /** The organizations and gate providers to choose from: staff (USER_VIEWER) see all, nobody else any. */
  async organizations(dto: SystemOrganizationViewDto): Promise<Page<SystemOrganizationRecordDto>> {
    const { offset, limit } = pageWindow(dto);
    const { organizationTypes, ...filter } = dto.filter ?? {};
    const codes = (organizationTypes ?? []).map((t) => t.code).filter((c): c is string => !!c);
    const types = filter.types || codes.length ? [...(filter.types ?? []), ...codes] : undefined;
    const { total, exact, rows } = await this.repository.organizations({ ...filter, types }, nameSortOf(dto.sort), offset, limit);
    return pageOf(dto, total, rows.map(toRecord), exact);
  }

  /**
   * The coins a system operation may name for a cash desk (its cash coins) or a gate provider (the settlement coins of
   * the issuers of its products' currencies, opened when first asked for). Any other organization is a 404.
   */
  async providerCoins(id: string): Promise<StaffCoinDto[]> {
    const type = await this.repository.partyType(id);
    if (type === 'cash_desk') return this.coinsWhere({ organizationIds: [id], types: ['client'] });
    if (type !== 'gate_provider') throw new ApiError('exception.organization.not_found', `No cash desk or gate provider ${id}`);
    const serials: string[] = [];
    for (const issuerId of await this.repository.gateProviderIssuers(id))
      serials.push(await this.ledger.systemCoin(issuerId, 'gate_settlement'));
    return serials.length ? this.coinsWhere({ serials }) : [];
  }

  private async coinsWhere(filter: { organizationIds?: string[]; serials?: string[]; types?: ('client' | 'system')[] }) {
    return (await this.coins.view({ filter, all: true })).records;
  }
}

function isCashCoin(coin: ProviderCoinRow): boolean {
  return coin.type === 'client' && coin.organization_type === 'cash_desk';
}

function isGateSettlement(coin: ProviderCoinRow): boolean {
  return coin.type === 'system' && coin.system_kind === 'gate_settlement';
}

function toRecord(row: SystemOrganizationRow): SystemOrganizationRecordDto {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    identificationStatus: row.identification_status,
    status: row.active ? 'active' : 'blocked',
    contract_info: row.contract_id ? { id: row.contract_id, personType: row.person_type!, name: row.contract_name! } : null,
    createdAt: row.created_at.toISOString(),
  };
}
