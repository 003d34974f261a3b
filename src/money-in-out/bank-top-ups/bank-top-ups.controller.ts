import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { OptionalDeclineDto, RequestIdParam } from '../../platform/common/request-view.dto';
import { OperationResultDto } from '../../platform/ledger/dto/operation.dto';
import { BankTopUpsService } from './bank-top-ups.service';
import { RequestCalculationDto } from './dto/bank-calculation.dto';
import { BankTopUpDto } from './dto/bank-top-up.dto';
import * as dto from './dto/bank-top-up-request.dto';

const REQUESTER = { access: ['BANK_TOP_UP_REQUESTER'] } as const;
/** Staff decide a `new` request, named by its id or `requestIdentifier`. */
const DECISION = {
  access: ['BANK_TOP_UP_MANAGER'],
  idempotent: true,
  status: 200,
  errors: ['exception.bank_top_up.not_found', 'exception.bank_top_up.decided'],
} as const;

@Routes('bank-top-ups')
export class BankTopUpsController {
  constructor(private readonly topUps: BankTopUpsService) {}

  /** Credits a coin from its issuer's bank-settlement coin at once (staff); the answer carries customInformation (release 4.10.0). */
  @Route('POST', '', {
    access: ['BANK_TOP_UP_MANAGER'],
    idempotent: true,
    summary: 'Bank top-up of a coin',
    errors: ['exception.coin.not_found'],
  })
  async createBankTopUp(@Body() body: BankTopUpDto): Promise<OperationResultDto> {
    return { status: 'ok', message: 'Bank top-up completed', process: await this.topUps.topUp(body) };
  }

  /** Requests a top-up of a coin of the caller's (any client coin, for BANK_TOP_UP_MANAGER): `new`, nothing moves until staff accept. */
  @Route('POST', 'create-request', {
    ...REQUESTER,
    idempotent: true,
    summary: 'Request a bank top-up',
    errors: [['exception.coin.not_found', 'no such coin of the caller'], 'exception.bank_catalog.not_found'],
  })
  async createBankTopUpRequest(@Body() body: dto.BankTopUpRequestDto, @Caller() caller: Principal): Promise<dto.BankTopUpRequestResultDto> {
    return { status: 'ok', message: 'Bank top-up requested', bankTopUp: await this.topUps.request(caller, body) };
  }

  /** Searches top-up requests: staff every organization's, others their own. Newest first by default. */
  @Route('POST', 'view', { ...REQUESTER, summary: 'Search bank top-up requests', status: 200 })
  viewBankTopUpRequests(@Body() body: dto.BankTopUpRequestViewDto, @Caller() caller: Principal): Promise<dto.BankTopUpRequestPageDto> {
    return this.topUps.view(caller, body);
  }

  /** The fee and what the coin would be credited under its organization's contract, without moving money. */
  @Route('POST', 'calculate', { ...REQUESTER, summary: 'Calculate a bank top-up', status: 200, errors: ['exception.coin.not_found'] })
  calculateBankTopUp(@Body() body: BankTopUpDto, @Caller() caller: Principal): Promise<RequestCalculationDto> {
    return this.topUps.calculate(caller, body);
  }

  /** A bank top-up request with its status and, once accepted, its `operationId`: the organization's (any, for auditors). */
  @Route('GET', ':id', { ...REQUESTER, summary: 'Get a bank top-up request', errors: ['exception.bank_top_up.not_found'] })
  async getBankTopUpRequest(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.BankTopUpRequestResultDto> {
    return { status: 'ok', message: 'OK', bankTopUp: await this.topUps.get(caller, id) };
  }

  /** Accepts a `new` request (by its id or `requestIdentifier`): posts the top-up, fee by the rule in force, linked as `operationId`. */
  @Route('POST', ':id/accept', {
    ...DECISION,
    summary: 'Accept a bank top-up request',
    errors: [...DECISION.errors, 'exception.coin.closed'],
  })
  async acceptBankTopUpRequest(@RequestIdParam('id') id: string, @Caller() caller: Principal): Promise<dto.BankTopUpDecisionDto> {
    return { status: 'ok', message: 'Bank top-up accepted', ...(await this.topUps.accept(caller, id)) };
  }

  /** Declines a `new` request (by its id or `requestIdentifier`), with a reason or none; nothing moves. */
  @Route('POST', ':id/decline', { ...DECISION, summary: 'Decline a bank top-up request' })
  async declineBankTopUpRequest(
    @RequestIdParam('id') id: string,
    @Body() body: OptionalDeclineDto,
    @Caller() caller: Principal,
  ): Promise<dto.BankTopUpRequestResultDto> {
    return { status: 'ok', message: 'Bank top-up declined', bankTopUp: await this.topUps.decline(caller, id, body.reason) };
  }
}
