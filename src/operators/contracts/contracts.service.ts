import { Injectable } from '@nestjs/common';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { CommissionProfilesService } from '../../platform/commissions/commission-profiles.service';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { OrganizationsService } from '../../platform/organizations/organizations.service';
import { LimitProfilesService } from '../limit-profiles/limit-profiles.service';
import { PERSON_TYPES } from '../../platform/organizations/organization.types';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { ContractRow, ContractsRepository, SortColumn } from './contracts.repository';
import { FAMILY_PERSON_TYPES } from './dto/contract.dto';
import type {
  ContractDto,
  ContractSortDto,
  ContractViewDto,
  CopyContractDto,
  CreateContractDto,
  UpdateContractDto,
} from './dto/contract.dto';

const SORT_COLUMNS: Record<keyof ContractSortDto, SortColumn> = {
  name: 'name',
  createdAt: 'created_at',
  id: 'id',
  organizationType: 'organization_type',
  personType: 'person_type',
  description: 'description',
  active: 'active',
  global: 'global',
};

/** Both lists given, a contract must be in each; one given, in it. */
function bothOf(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (a?.length && b?.length) return a.filter((x) => b.includes(x));
  return a?.length ? a : b;
}

function toContract(row: ContractRow): ContractDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organizationType: row.organization_type,
    personType: row.person_type,
    active: row.active,
    global: row.global,
    default: row.is_default,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * Contracts: every organization follows one, and its commissions come from the contract's
 * commission profiles. Each organization type has a default, global contract (seeded by the
 * migration) that new organizations get.
 */
@Injectable()
export class ContractsService {
  constructor(
    private readonly contracts: ContractsRepository,
    private readonly organizations: OrganizationsService,
    private readonly profiles: CommissionProfilesService,
    private readonly actions: UserActionsService,
    private readonly uow: UnitOfWork,
    private readonly limits: LimitProfilesService,
  ) {}

  async create(dto: CreateContractDto): Promise<ContractDto> {
    const row = await this.contracts.insert({
      name: dto.name,
      description: dto.description ?? null,
      organization_type: dto.organizationType,
      person_type: dto.personType ?? 'base',
      active: dto.active ?? true,
      global: dto.global ?? false,
    });
    return toContract(row);
  }

  /** The family's filters too: `types` (organization types), `id`, `personTypes` in its words, `dateFrom`/`dateTo`. */
  async view(dto: ContractViewDto): Promise<Page<ContractDto>> {
    const filter = dto.filter ?? {};
    const sort = Object.entries(dto.sort ?? {})
      .filter(([, direction]) => direction !== undefined)
      .map(([field, direction]): [SortColumn, 'ASC' | 'DESC'] => [
        SORT_COLUMNS[field as keyof ContractSortDto],
        direction === 'desc' ? 'DESC' : 'ASC',
      ]);
    const personTypes = filter.personTypes?.map((t) => FAMILY_PERSON_TYPES[t] ?? t);
    const { total, rows } = await this.contracts.search({
      ids: filter.id ? [...(filter.ids ?? []), filter.id] : filter.ids,
      organizationTypes: bothOf(filter.organizationTypes, filter.types),
      personTypes: personTypes?.filter((t) => (PERSON_TYPES as readonly string[]).includes(t)),
      anyPersonTypeOf: personTypes?.filter((t) => !(PERSON_TYPES as readonly string[]).includes(t)),
      active: filter.active,
      global: filter.global,
      name: filter.name,
      description: filter.description,
      createdFrom: filter.dateFrom,
      createdTo: filter.dateTo,
      sort: sort.length ? sort : [['name', 'ASC']],
      ...pageWindow(dto),
    });
    return pageOf(dto, total, rows.map(toContract));
  }

  /** The contract, or 404: what every route under /contracts/{contractId} checks first. */
  async get(id: string): Promise<ContractDto> {
    return toContract(await this.row(id));
  }

  async update(id: string, dto: UpdateContractDto): Promise<ContractDto> {
    return this.uow.run(async () => {
      const current = await this.row(id, true);
      if (current.is_default && dto.active === false) {
        throw new ApiError('exception.contract.default_locked', 'A default contract stays active: new organizations get it');
      }
      const row = await this.contracts.update({
        ...current,
        name: dto.name ?? current.name,
        description: dto.description !== undefined ? dto.description : current.description,
        person_type: dto.personType ?? current.person_type,
        active: dto.active ?? current.active,
      });
      return toContract(row);
    });
  }

  /** A new contract for the same organization type, with copies of the original's commission profiles, rules and conditions. */
  async copy(id: string, dto: CopyContractDto): Promise<{ contract: ContractDto; copiedProfiles: number; copiedLimits?: number }> {
    return this.uow.run(async () => {
      const original = await this.row(id);
      const row = await this.contracts.insert({
        name: dto.name ?? `Copy of ${original.name}`.slice(0, 200),
        description: dto.description !== undefined ? dto.description : original.description,
        organization_type: original.organization_type,
        person_type: dto.personType ?? original.person_type,
        active: dto.active ?? original.active,
        global: dto.global ?? false,
      });
      const copiedProfiles = await this.profiles.copyProfiles(original.id, row.id);
      if (!dto.copyLimits) return { contract: toContract(row), copiedProfiles };
      return { contract: toContract(row), copiedProfiles, copiedLimits: await this.limits.copy(original.id, row.id) };
    });
  }

  /**
   * Points an organization at a contract: one for its type (400 otherwise), active (409), and, when
   * not global, held by no other organization (409). Commissions follow the new contract at once; a
   * change is recorded in the action log (`contract_assigned`, by `actor`).
   */
  async assign(organizationId: string, contractId: string, actor: string): Promise<ContractDto> {
    return this.uow.run(async () => {
      const contract = await this.row(contractId, true);
      const organization = await this.organizations.find(organizationId, true);
      if (!organization) throw new ApiError('exception.organization.not_found', 'No such organization');
      if (contract.organization_type !== organization.type) {
        throw ApiError.invalid(
          'contractId',
          `must be a contract for ${organization.type} organizations, not ${contract.organization_type}`,
        );
      }
      if (organization.contract_id !== contract.id) {
        if (!contract.active) throw new ApiError('exception.contract.inactive', 'The contract is inactive: it cannot be assigned');
        if (!contract.global && (await this.organizations.contractHeldByAnother(contract.id, organizationId))) {
          throw new ApiError('exception.contract.in_use', 'The contract is not global and already belongs to another organization');
        }
        await this.organizations.setContract(organizationId, contract.id);
        await this.actions.record({
          userId: actor,
          action: 'contract_assigned',
          details: { organizationId, contractId: contract.id, previousContractId: organization.contract_id },
        });
      }
      return toContract(contract);
    });
  }

  private async row(id: string, lock = false): Promise<ContractRow> {
    const row = await this.contracts.find(id, lock);
    if (!row) throw new ApiError('exception.contract.not_found', 'No such contract');
    return row;
  }
}
