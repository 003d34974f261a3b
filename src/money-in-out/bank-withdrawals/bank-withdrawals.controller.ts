import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { OptionalDeclineDto, RequestIdParam } from '../../platform/common/request-view.dto';
import { RequestCalculationDto } from '../bank-top-ups/dto/bank-calculation.dto';
import { BankWithdrawalsService } from './bank-withdrawals.service';
import * as dto from './dto/bank-withdrawal.dto';

const REQUESTER = { access: ['BANK_WITHDRAWAL_REQUESTER'] } as const;
/** A withdrawal from a coin to a bank account: the money leaves, or is held. */
const WITHDRAWAL = {
  ...REQUESTER,
  idempotent: true,
  errors: ['exception.coin.not_found', 'exception.bank_account.not_found', 'exception.coin.insufficient_funds', 'exception.coin.inactive'],
} as const;
/** Staff decide a pending request, named by its id or `requestIdentifier`. */
const DECISION = {
  access: ['BANK_WITHDRAWAL_MANAGER'],
  idempotent: true,
  status: 200,
  errors: ['exception.bank_withdrawal.not_found', 'exception.bank_withdrawal.decided'],
} as const;

@Routes('bank-withdrawals')
export class BankWithdrawalsController {
  constructor(private readonly withdrawals: BankWithdrawalsService) {}

  /**
   * Staff with BANK_WITHDRAWAL_MANAGER pay a coin out to a bank at once (the coin pays the bank-settlement coin, and the fee); anyone
   * else requests a withdrawal from their own coin, held until staff decide, as `create-request` does (with another answer).
   */
  @Route('POST', '', { ...WITHDRAWAL, summary: 'Bank withdrawal from a coin' })
  async createBankWithdrawal(@Body() body: dto.BankWithdrawalDto, @Caller() caller: Principal): Promise<dto.BankWithdrawalCreatedDto> {
    const created = await this.withdrawals.create(caller, body);
    const message = created.bankWithdrawal.kind === 'direct' ? 'Bank withdrawal completed' : 'Bank withdrawal requested';
    return { status: 'ok', message, ...created };
  }

  /** Requests a withdrawal from one of the caller's coins: the amount and the fee are held (`heldAmount`) until staff accept or decline. */
  @Route('POST', 'create-request', { ...WITHDRAWAL, summary: 'Request a bank withdrawal' })
  async createBankWithdrawalRequest(
    @Body() body: dto.BankWithdrawalDto,
    @Caller() caller: Principal,
  ): Promise<dto.BankWithdrawalResultDto> {
    return { status: 'ok', message: 'Bank withdrawal requested', ...(await this.withdrawals.request(caller, body)) };
  }

  /** Searches withdrawals (customInformation in the filter and the answer, release 4.10.0): staff all, others their own. */
  @Route('POST', 'view', { ...REQUESTER, summary: 'Search bank withdrawals', status: 200 })
  viewBankWithdrawals(@Body() body: dto.BankWithdrawalViewDto, @Caller() caller: Principal): Promise<dto.BankWithdrawalPageDto> {
    return this.withdrawals.view(caller, body);
  }

  /** The fee and what leaves the coin, without moving money. */
  @Route('POST', 'calculate', {
    ...REQUESTER,
    summary: 'Calculate a bank withdrawal',
    status: 200,
    errors: ['exception.coin.not_found', 'exception.coin.inactive'],
  })
  calculateBankWithdrawal(@Body() body: dto.BankWithdrawalDto, @Caller() caller: Principal): Promise<RequestCalculationDto> {
    return this.withdrawals.calculate(caller, body);
  }

  /** A bank withdrawal, `direct` or a request, with the bank details as they were: the organization's (any, for auditors). */
  @Route('GET', ':id', { ...REQUESTER, summary: 'Get a bank withdrawal', errors: ['exception.bank_withdrawal.not_found'] })
  async getBankWithdrawal(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.BankWithdrawalRecordResultDto> {
    return { status: 'ok', message: 'OK', bankWithdrawal: await this.withdrawals.get(caller, id) };
  }

  /** Pays out a pending request (by its id or `requestIdentifier`): its operation settles in place and the hold is captured. */
  @Route('POST', ':id/accept', { ...DECISION, summary: 'Accept a bank withdrawal request' })
  async acceptBankWithdrawal(@RequestIdParam('id') id: string, @Caller() caller: Principal): Promise<dto.BankWithdrawalResultDto> {
    return { status: 'ok', message: 'Bank withdrawal accepted', ...(await this.withdrawals.accept(caller, id)) };
  }

  /** Declines a pending request (by its id or `requestIdentifier`), with a reason or none: the hold is released, nothing moves. */
  @Route('POST', ':id/decline', { ...DECISION, summary: 'Decline a bank withdrawal request' })
  async declineBankWithdrawal(
    @RequestIdParam('id') id: string,
    @Body() body: OptionalDeclineDto,
    @Caller() caller: Principal,
  ): Promise<dto.BankWithdrawalResultDto> {
    return { status: 'ok', message: 'Bank withdrawal declined', ...(await this.withdrawals.decline(caller, id, body.reason)) };
  }
}
