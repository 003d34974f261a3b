import { Injectable } from '@nestjs/common';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { CommissionProfilesService } from '../../platform/commissions/commission-profiles.service';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { OrganizationsService } from '../../platform/organizations/organizations.service';
import { LimitProfilesService } from '../limit-profiles/limit-profiles.service';
import { ContractRow, ContractsRepository } from './contracts.repository';
import type { ContractDto, ContractViewDto, CopyContractDto, CreateContractDto, UpdateContractDto } from './dto/contract.dto';

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

  async view(dto: ContractViewDto): Promise<Page<ContractDto>> {
    const sort = dto.sort?.createdAt ? 'created_at' : 'name';
    const { total, rows } = await this.contracts.search({
      ...(dto.filter ?? {}),
      sort,
      direction: (sort === 'created_at' ? dto.sort?.createdAt : dto.sort?.name) === 'desc' ? 'DESC' : 'ASC',
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
   * not global, held by no other organization (409). Commissions follow the new contract at once.
   */
  async assign(organizationId: string, contractId: string): Promise<ContractDto> {
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
