import { Body, Controller, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { ContractsService } from './contracts.service';
import {
  AssignContractDto,
  ChangeOrganizationContractDto,
  ContractCopyResponseDto,
  ContractPageDto,
  ContractResponseDto,
  ContractViewDto,
  CopyContractDto,
  CreateContractDto,
  OrganizationContractDto,
  UpdateContractDto,
} from './dto/contract.dto';

@ApiTags('contracts')
@Controller('contracts')
export class ContractsController {
  constructor(private readonly contracts: ContractsService) {}

  /**
   * Staff (CONTRACT_MANAGER) create a contract for a type of organization; it prices nothing until it has commission
   * profiles, and serves an organization once assigned to it (`PUT /organizations/{organizationId}/contract`).
   */
  @Post()
  @RequirePermissions('CONTRACT_MANAGER')
  @ApiOperation({ summary: 'Create a contract', operationId: 'createContract' })
  @ApiCreatedResponse({ type: ContractResponseDto })
  async create(@Body() dto: CreateContractDto): Promise<ContractResponseDto> {
    return { status: 'ok', message: 'Contract created', contract: await this.contracts.create(dto) };
  }

  /**
   * Contracts by id, organization type (`organizationTypes`, or the family's `types`), person type, active, global, part
   * of the name or description and creation date; by name unless sorted otherwise.
   */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('CONTRACT_VIEWER')
  @ApiOperation({ summary: 'Search contracts', operationId: 'viewContracts' })
  @ApiOkResponse({ type: ContractPageDto })
  view(@Body() dto: ContractViewDto): Promise<ContractPageDto> {
    return this.contracts.view(dto);
  }

  /**
   * The family's way to move an organization to another contract (its user-profile screen): as
   * `PUT /organizations/{organizationId}/contract`, recorded in the action log.
   */
  @Patch()
  @RequirePermissions('CONTRACT_MANAGER')
  @ApiOperation({ summary: "Change an organization's contract", operationId: 'changeOrganizationContract' })
  @ApiOkResponse({ type: OrganizationContractDto })
  @ApiNotFoundResponse({ description: 'No such organization or contract', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.contract.inactive, exception.contract.in_use', type: ErrorResponseDto })
  async change(@Body() dto: ChangeOrganizationContractDto, @CurrentPrincipal() principal: Principal): Promise<OrganizationContractDto> {
    return {
      status: 'ok',
      message: 'Contract assigned',
      organizationId: dto.organizationId,
      contract: await this.contracts.assign(dto.organizationId, dto.contractId, principal.userId),
    };
  }

  /** A contract; an unknown one is a 404. */
  @Get(':id')
  @RequirePermissions('CONTRACT_VIEWER')
  @ApiOperation({ summary: 'Get a contract', operationId: 'getContract' })
  @ApiOkResponse({ type: ContractResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@UuidParam('id') id: string): Promise<ContractResponseDto> {
    return { status: 'ok', message: 'OK', contract: await this.contracts.get(id) };
  }

  /** Changes name, description, personType or active; a default contract stays active (409). */
  @Patch(':id')
  @RequirePermissions('CONTRACT_MANAGER')
  @ApiOperation({ summary: 'Change a contract', operationId: 'updateContract' })
  @ApiOkResponse({ type: ContractResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.contract.default_locked', type: ErrorResponseDto })
  async update(@UuidParam('id') id: string, @Body() dto: UpdateContractDto): Promise<ContractResponseDto> {
    return { status: 'ok', message: 'Contract updated', contract: await this.contracts.update(id, dto) };
  }

  /** A new contract for the same organization type, with copies of the original's commission profiles, rules and conditions. */
  @Post(':id/copy')
  @RequirePermissions('CONTRACT_MANAGER', 'COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Copy a contract with its commission profiles', operationId: 'copyContract' })
  @ApiCreatedResponse({ type: ContractCopyResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async copy(@UuidParam('id') id: string, @Body() dto: CopyContractDto): Promise<ContractCopyResponseDto> {
    return { status: 'ok', message: 'Contract copied', ...(await this.contracts.copy(id, dto)) };
  }
}

@ApiTags('contracts')
@Controller('organizations')
export class OrganizationContractsController {
  constructor(private readonly contracts: ContractsService) {}

  /**
   * Assigns a contract to an organization: it must serve the organization's type (400), be active
   * (409) and, unless global, belong to no other organization (409). The login's
   * `contract_info.id` and the organization's commissions follow it at once.
   */
  @Put(':organizationId/contract')
  @RequirePermissions('CONTRACT_MANAGER')
  @ApiOperation({ summary: "Assign an organization's contract", operationId: 'assignContract' })
  @ApiOkResponse({ type: OrganizationContractDto })
  @ApiNotFoundResponse({ description: 'No such organization or contract', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.contract.inactive, exception.contract.in_use', type: ErrorResponseDto })
  async assign(
    @UuidParam('organizationId') organizationId: string,
    @Body() dto: AssignContractDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<OrganizationContractDto> {
    return {
      status: 'ok',
      message: 'Contract assigned',
      organizationId,
      contract: await this.contracts.assign(organizationId, dto.contractId, principal.userId),
    };
  }
}
