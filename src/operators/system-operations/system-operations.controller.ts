import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { OperationRecordResultDto } from '../../platform/ledger/dto/operation.dto';
import { ProviderCoinListDto, SystemOperationDto, SystemOrganizationPageDto, SystemOrganizationViewDto } from './dto/system-operations.dto';
import { SystemOperationsService, SystemOperationType } from './system-operations.service';

const COIN_NOT_FOUND = { description: 'exception.coin.not_found: no coin of that serial', type: ErrorResponseDto };

/**
 * System operations (cfo, accountants, administrators): money between the operator's system coins and the coins of
 * cash desks and gate providers, each one processed ledger operation, and the organizations and coins to choose from.
 */
@ApiTags('system-operations')
@Controller()
export class SystemOperationsController {
  constructor(private readonly operations: SystemOperationsService) {}

  /** Cash put into a cash desk: the issuer's `cash_desk` system coin (the vault) credits the desk's cash coin. */
  @Post('inputs')
  @RequirePermissions('SYSTEM_OPERATION_CREATOR')
  @Idempotent()
  @ApiOperation({ summary: 'Put cash into a cash desk (cash input)', operationId: 'createCashInput' })
  @ApiCreatedResponse({ type: OperationRecordResultDto })
  @ApiNotFoundResponse(COIN_NOT_FOUND)
  input(@Body() dto: SystemOperationDto): Promise<OperationRecordResultDto> {
    return this.move('cash_input', dto, 'Cash input processed');
  }

  /** Cash collected from a cash desk: its cash coin pays the issuer's `cash_desk` system coin, never more than it holds. */
  @Post('collects')
  @RequirePermissions('SYSTEM_OPERATION_CREATOR')
  @Idempotent()
  @ApiOperation({ summary: 'Collect cash from a cash desk (cash collect)', operationId: 'createCashCollect' })
  @ApiCreatedResponse({ type: OperationRecordResultDto })
  @ApiNotFoundResponse(COIN_NOT_FOUND)
  collect(@Body() dto: SystemOperationDto): Promise<OperationRecordResultDto> {
    return this.move('cash_collect', dto, 'Cash collect processed');
  }

  /** An investment in a cash desk: the issuer's bank-settlement coin credits the desk's cash coin. */
  @Post('investments')
  @RequirePermissions('SYSTEM_OPERATION_CREATOR')
  @Idempotent()
  @ApiOperation({ summary: 'Invest in a cash desk', operationId: 'createCashInvestment' })
  @ApiCreatedResponse({ type: OperationRecordResultDto })
  @ApiNotFoundResponse(COIN_NOT_FOUND)
  invest(@Body() dto: SystemOperationDto): Promise<OperationRecordResultDto> {
    return this.move('cash_investment', dto, 'Investment processed');
  }

  /** Prefunds the gate providers: the issuer's bank-settlement coin credits its gate-settlement coin (`serial`). */
  @Post('gate-investments')
  @RequirePermissions('SYSTEM_OPERATION_CREATOR')
  @Idempotent()
  @ApiOperation({ summary: 'Invest in the gate providers’ settlement coin', operationId: 'createGateInvestment' })
  @ApiCreatedResponse({ type: OperationRecordResultDto })
  @ApiNotFoundResponse(COIN_NOT_FOUND)
  investInGates(@Body() dto: SystemOperationDto): Promise<OperationRecordResultDto> {
    return this.move('gate_investment', dto, 'Gate investment processed');
  }

  /**
   * Organizations and gate providers (type `gate_provider`) by name or creation, filtered by type, issuer served, name
   * and identification status: what the system operations and users screens choose from. Staff only.
   */
  @Post('organizations')
  @HttpCode(200)
  @RequirePermissions('USER_VIEWER')
  @ApiOperation({ summary: 'Search organizations and gate providers (staff)', operationId: 'searchOrganizations' })
  @ApiOkResponse({ type: SystemOrganizationPageDto })
  organizations(@Body() dto: SystemOrganizationViewDto): Promise<SystemOrganizationPageDto> {
    return this.operations.organizations(dto);
  }

  /** The coins a system operation may name for a cash desk (its cash coins) or a gate provider (its settlement coins). */
  @Get('organizations/:id/provider-coins')
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @RequirePermissions('COIN_VIEWER')
  @ApiOperation({ summary: 'The coins of a cash desk or gate provider', operationId: 'listProviderCoins' })
  @ApiOkResponse({ type: ProviderCoinListDto })
  @ApiNotFoundResponse({
    description: 'exception.organization.not_found: no cash desk or gate provider of that id',
    type: ErrorResponseDto,
  })
  async providerCoins(@UuidParam('id') id: string): Promise<ProviderCoinListDto> {
    return { status: 'ok', message: 'OK', coins: await this.operations.providerCoins(id) };
  }

  private async move(type: SystemOperationType, dto: SystemOperationDto, message: string): Promise<OperationRecordResultDto> {
    return { status: 'ok', message, process: await this.operations.move(type, dto) };
  }
}
