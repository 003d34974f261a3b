import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { OptionalDeclineDto, RequestIdParam } from '../../platform/common/request-view.dto';
import { UuidParam } from '../../platform/common/validators';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { RequestCalculationDto } from '../bank-top-ups/dto/bank-calculation.dto';
import { BankWithdrawalsService } from './bank-withdrawals.service';
import {
  BankWithdrawalCreatedDto,
  BankWithdrawalDto,
  BankWithdrawalPageDto,
  BankWithdrawalRecordResultDto,
  BankWithdrawalResultDto,
  BankWithdrawalViewDto,
} from './dto/bank-withdrawal.dto';

@ApiTags('bank-withdrawals')
@Controller('bank-withdrawals')
export class BankWithdrawalsController {
  constructor(private readonly withdrawals: BankWithdrawalsService) {}

  /**
   * Staff (BANK_WITHDRAWAL_MANAGER) pay a coin out to a bank at once: the coin pays the bank-settlement coin, and the
   * fee. Any other requester (a customer, from the family's wallet screen) requests a withdrawal from its own coin, held
   * until staff decide, as `create-request` does. customInformation in request and answer (release 4.10.0).
   */
  @Post()
  @RequirePermissions('BANK_WITHDRAWAL_REQUESTER')
  @Idempotent()
  @ApiOperation({ summary: 'Bank withdrawal from a coin', operationId: 'createBankWithdrawal' })
  @ApiCreatedResponse({ type: BankWithdrawalCreatedDto })
  @ApiNotFoundResponse({ description: 'No such coin (of the caller, unless staff) or bank account', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'Insufficient funds, or the coin is closed or inactive', type: ErrorResponseDto })
  async create(@Body() dto: BankWithdrawalDto, @CurrentPrincipal() principal: Principal): Promise<BankWithdrawalCreatedDto> {
    const created = await this.withdrawals.create(principal, dto);
    const message = created.bankWithdrawal.kind === 'direct' ? 'Bank withdrawal completed' : 'Bank withdrawal requested';
    return { status: 'ok', message, ...created };
  }

  /**
   * Requests a withdrawal from one of the caller's coins: the amount plus the fee is held
   * (`heldAmount` rises, `availableAmount` falls, the balance stays) until staff accept or decline.
   */
  @Post('create-request')
  @RequirePermissions('BANK_WITHDRAWAL_REQUESTER')
  @Idempotent()
  @ApiOperation({ summary: 'Request a bank withdrawal', operationId: 'createBankWithdrawalRequest' })
  @ApiCreatedResponse({ type: BankWithdrawalResultDto })
  @ApiNotFoundResponse({ description: 'No such coin of the caller, or bank account of its organization', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'Insufficient available funds, or the coin is closed or inactive', type: ErrorResponseDto })
  async request(@Body() dto: BankWithdrawalDto, @CurrentPrincipal() principal: Principal): Promise<BankWithdrawalResultDto> {
    return { status: 'ok', message: 'Bank withdrawal requested', ...(await this.withdrawals.request(principal, dto)) };
  }

  /** Searches withdrawals (customInformation in the filter and the answer, release 4.10.0): staff all, others their own. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('BANK_WITHDRAWAL_REQUESTER')
  @ApiOperation({ summary: 'Search bank withdrawals', operationId: 'viewBankWithdrawals' })
  @ApiOkResponse({ type: BankWithdrawalPageDto })
  view(@Body() dto: BankWithdrawalViewDto, @CurrentPrincipal() principal: Principal): Promise<BankWithdrawalPageDto> {
    return this.withdrawals.view(principal, dto);
  }

  /** The fee and what leaves the coin, without moving money. */
  @Post('calculate')
  @HttpCode(200)
  @RequirePermissions('BANK_WITHDRAWAL_REQUESTER')
  @ApiOperation({ summary: 'Calculate a bank withdrawal', operationId: 'calculateBankWithdrawal' })
  @ApiOkResponse({ type: RequestCalculationDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.coin.inactive: the coin is closed or inactive', type: ErrorResponseDto })
  calculate(@Body() dto: BankWithdrawalDto, @CurrentPrincipal() principal: Principal): Promise<RequestCalculationDto> {
    return this.withdrawals.calculate(principal, dto);
  }

  /**
   * A bank withdrawal, paid out at once (`direct`) or requested, with its status, amount, fee and the bank details as
   * they were. The caller's organization's only (every one for staff with TRANSACTION_AUDITOR); another's is a 404.
   */
  @Get(':id')
  @RequirePermissions('BANK_WITHDRAWAL_REQUESTER')
  @ApiOperation({ summary: 'Get a bank withdrawal', operationId: 'getBankWithdrawal' })
  @ApiOkResponse({ type: BankWithdrawalRecordResultDto })
  @ApiNotFoundResponse({ description: 'No such withdrawal, or another organization’s', type: ErrorResponseDto })
  async get(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<BankWithdrawalRecordResultDto> {
    return { status: 'ok', message: 'OK', bankWithdrawal: await this.withdrawals.get(principal, id) };
  }

  /** Pays out a pending request (by its id or `requestIdentifier`): its operation settles in place and the hold is captured. */
  @Post(':id/accept')
  @HttpCode(200)
  @RequirePermissions('BANK_WITHDRAWAL_MANAGER')
  @Idempotent()
  @ApiOperation({ summary: 'Accept a bank withdrawal request', operationId: 'acceptBankWithdrawal' })
  @ApiOkResponse({ type: BankWithdrawalResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.bank_withdrawal.decided', type: ErrorResponseDto })
  async accept(@RequestIdParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<BankWithdrawalResultDto> {
    return { status: 'ok', message: 'Bank withdrawal accepted', ...(await this.withdrawals.accept(principal, id)) };
  }

  /** Declines a pending request (by its id or `requestIdentifier`), with a reason or none: the hold is released, nothing moves. */
  @Post(':id/decline')
  @HttpCode(200)
  @RequirePermissions('BANK_WITHDRAWAL_MANAGER')
  @Idempotent()
  @ApiOperation({ summary: 'Decline a bank withdrawal request', operationId: 'declineBankWithdrawal' })
  @ApiOkResponse({ type: BankWithdrawalResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.bank_withdrawal.decided', type: ErrorResponseDto })
  async decline(
    @RequestIdParam('id') id: string,
    @Body() dto: OptionalDeclineDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<BankWithdrawalResultDto> {
    return { status: 'ok', message: 'Bank withdrawal declined', ...(await this.withdrawals.decline(principal, id, dto.reason)) };
  }
}
