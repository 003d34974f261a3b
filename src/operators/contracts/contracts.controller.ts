import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { ContractsService } from './contracts.service';
import * as dto from './dto/contract.dto';

const VIEWER = { access: ['CONTRACT_VIEWER'] } as const;
const MANAGER = { access: ['CONTRACT_MANAGER'] } as const;
const NOT_FOUND = 'exception.contract.not_found';
/** An organization's contract changed: both must exist, the contract be active and, unless global, no other's. */
const ASSIGN = {
  ...MANAGER,
  errors: ['exception.organization.not_found', NOT_FOUND, 'exception.contract.inactive', 'exception.contract.in_use'],
} as const;

@Routes('contracts')
export class ContractsController {
  constructor(private readonly contracts: ContractsService) {}

  /** A contract for an organization type: it prices nothing without commission profiles, and serves an organization once assigned. */
  @Route('POST', '', { ...MANAGER, summary: 'Create a contract' })
  async createContract(@Body() body: dto.CreateContractDto): Promise<dto.ContractResponseDto> {
    return { status: 'ok', message: 'Contract created', contract: await this.contracts.create(body) };
  }

  /**
   * Contracts by id, organization type (`organizationTypes`, or the family's `types`), person type, active, global, part
   * of the name or description and creation date; by name unless sorted otherwise.
   */
  @Route('POST', 'view', { ...VIEWER, summary: 'Search contracts', status: 200 })
  viewContracts(@Body() body: dto.ContractViewDto): Promise<dto.ContractPageDto> {
    return this.contracts.view(body);
  }

  /** The family's way to move an organization to another contract, as `PUT /organizations/{organizationId}/contract` does. */
  @Route('PATCH', '', { ...ASSIGN, summary: "Change an organization's contract" })
  changeOrganizationContract(
    @Body() body: dto.ChangeOrganizationContractDto,
    @Caller() caller: Principal,
  ): Promise<dto.OrganizationContractDto> {
    return assigned(this.contracts, body.organizationId, body.contractId, caller);
  }

  /** A contract with its organization type, person type and whether it is active, global or a default. */
  @Route('GET', ':id', { ...VIEWER, summary: 'Get a contract', errors: [NOT_FOUND] })
  async getContract(@UuidParam('id') id: string): Promise<dto.ContractResponseDto> {
    return { status: 'ok', message: 'OK', contract: await this.contracts.get(id) };
  }

  /** Changes name, description, personType or active; a default contract stays active. */
  @Route('PATCH', ':id', { ...MANAGER, summary: 'Change a contract', errors: [NOT_FOUND, 'exception.contract.default_locked'] })
  async updateContract(@UuidParam('id') id: string, @Body() body: dto.UpdateContractDto): Promise<dto.ContractResponseDto> {
    return { status: 'ok', message: 'Contract updated', contract: await this.contracts.update(id, body) };
  }

  /** A new contract for the same organization type, with copies of the original's commission profiles, rules and conditions. */
  @Route('POST', ':id/copy', {
    access: ['CONTRACT_MANAGER', 'COMMISSION_MANAGER'],
    summary: 'Copy a contract with its commission profiles',
    errors: [NOT_FOUND],
  })
  async copyContract(@UuidParam('id') id: string, @Body() body: dto.CopyContractDto): Promise<dto.ContractCopyResponseDto> {
    return { status: 'ok', message: 'Contract copied', ...(await this.contracts.copy(id, body)) };
  }
}

@Routes('organizations', 'contracts')
export class OrganizationContractsController {
  constructor(private readonly contracts: ContractsService) {}

  /** The contract must serve the organization's type (400); the login's `contract_info.id` and the commissions follow it at once. */
  @Route('PUT', ':organizationId/contract', { ...ASSIGN, summary: "Assign an organization's contract" })
  assignContract(
    @UuidParam('organizationId') organizationId: string,
    @Body() body: dto.AssignContractDto,
    @Caller() caller: Principal,
  ): Promise<dto.OrganizationContractDto> {
    return assigned(this.contracts, organizationId, body.contractId, caller);
  }
}

/** Both ways of assigning a contract answer the same: the organization and its contract, recorded in the action log. */
async function assigned(contracts: ContractsService, organizationId: string, contractId: string, principal: Principal) {
  const contract = await contracts.assign(organizationId, contractId, principal.userId);
  return { status: 'ok', message: 'Contract assigned', organizationId, contract } as const;
}
