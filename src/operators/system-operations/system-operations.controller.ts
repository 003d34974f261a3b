import { Body, Route, Routes, UuidParam } from '../../platform/http';
import { OperationRecordResultDto } from '../../platform/ledger/dto/operation.dto';
import * as dto from './dto/system-operations.dto';
import { SystemOperationsService, SystemOperationType } from './system-operations.service';

/** A money-moving system operation: once per Idempotency-Key, on coins named by serial. */
const MOVE = {
  access: ['SYSTEM_OPERATION_CREATOR'],
  idempotent: true,
  errors: [['exception.coin.not_found', 'no coin of that serial']],
} as const;

/** Money between the operator's system coins and those of cash desks and gate providers, one operation each, and what to choose from. */
@Routes('', 'system-operations')
export class SystemOperationsController {
  constructor(private readonly operations: SystemOperationsService) {}

  /** Cash put into a cash desk: the issuer's `cash_desk` system coin (the vault) credits the desk's cash coin. */
  @Route('POST', 'inputs', { ...MOVE, summary: 'Put cash into a cash desk (cash input)' })
  createCashInput(@Body() body: dto.SystemOperationDto): Promise<OperationRecordResultDto> {
    return this.move('cash_input', body, 'Cash input processed');
  }

  /** Cash collected from a cash desk: its cash coin pays the issuer's `cash_desk` system coin, never more than it holds. */
  @Route('POST', 'collects', { ...MOVE, summary: 'Collect cash from a cash desk (cash collect)' })
  createCashCollect(@Body() body: dto.SystemOperationDto): Promise<OperationRecordResultDto> {
    return this.move('cash_collect', body, 'Cash collect processed');
  }

  /** An investment in a cash desk: the issuer's bank-settlement coin credits the desk's cash coin. */
  @Route('POST', 'investments', { ...MOVE, summary: 'Invest in a cash desk' })
  createCashInvestment(@Body() body: dto.SystemOperationDto): Promise<OperationRecordResultDto> {
    return this.move('cash_investment', body, 'Investment processed');
  }

  /** Prefunds the gate providers: the issuer's bank-settlement coin credits its gate-settlement coin (`serial`). */
  @Route('POST', 'gate-investments', { ...MOVE, summary: 'Invest in the gate providers’ settlement coin' })
  createGateInvestment(@Body() body: dto.SystemOperationDto): Promise<OperationRecordResultDto> {
    return this.move('gate_investment', body, 'Gate investment processed');
  }

  /** Organizations and gate providers (`gate_provider`) by type, issuer, name and identification status, sorted by name or creation. */
  @Route('POST', 'organizations', { access: ['USER_VIEWER'], summary: 'Search organizations and gate providers (staff)', status: 200 })
  searchOrganizations(@Body() body: dto.SystemOrganizationViewDto): Promise<dto.SystemOrganizationPageDto> {
    return this.operations.organizations(body);
  }

  /** The coins a system operation may name for a cash desk (its cash coins) or a gate provider (its settlement coins). */
  @Route('GET', 'organizations/:id/provider-coins', {
    access: ['COIN_VIEWER'],
    summary: 'The coins of a cash desk or gate provider',
    errors: [['exception.organization.not_found', 'no cash desk or gate provider of that id']],
  })
  async listProviderCoins(@UuidParam('id') id: string): Promise<dto.ProviderCoinListDto> {
    return { status: 'ok', message: 'OK', coins: await this.operations.providerCoins(id) };
  }

  private async move(type: SystemOperationType, body: dto.SystemOperationDto, message: string): Promise<OperationRecordResultDto> {
    return { status: 'ok', message, process: await this.operations.move(type, body) };
  }
}
