import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { RequestCalculationDto } from '../bank-top-ups/dto/bank-calculation.dto';
import { CashDeskWithdrawalsService } from './cash-desk-withdrawals.service';
import * as dto from './dto/cash-desk.dto';

/** What both routes share: the customer's permission and refusals (`cashDeskId` is a cash desk, an organization of type cash_desk). */
const WITHDRAWAL = {
  access: ['CASH_OUT_CODE_CREATOR'],
  errors: [
    ['exception.access.forbidden', 'only an individual or a merchant withdraws at a cash desk'],
    ['exception.coin.not_found', 'not the caller’s coin'],
    'exception.cash_desk.not_found',
    ['exception.cash_desk.no_cash_coin', 'the desk pays out no cash of this coin’s issuer'],
  ],
} as const;

/** A customer withdraws cash at a cash desk (the family's withdrawal form). */
@Routes('cash-desk-withdrawals', 'cash-desks')
export class CashDeskWithdrawalsController {
  constructor(private readonly withdrawals: CashDeskWithdrawalsService) {}

  /** The fee and what each side pays and gets, without moving money. */
  @Route('POST', ':cashDeskId/calculate', { ...WITHDRAWAL, summary: 'Calculate a withdrawal at a cash desk', status: 200 })
  calculateCashDeskWithdrawal(
    @UuidParam('cashDeskId') deskId: string,
    @Body() body: dto.CashDeskWithdrawalRequestDto,
    @Caller() caller: Principal,
  ): Promise<RequestCalculationDto> {
    return this.withdrawals.calculate(caller, deskId, body);
  }

  /** The customer's coin pays the desk's cash coin the amount and a fee at once (a `cash_desk_redeem`); the desk pays `receiverName`. */
  @Route('POST', ':cashDeskId', {
    ...WITHDRAWAL,
    idempotent: { groupCommit: true },
    summary: 'Withdraw cash at a cash desk',
    errors: [...WITHDRAWAL.errors, 'exception.coin.insufficient_funds', 'exception.coin.inactive'],
  })
  async createCashDeskWithdrawal(
    @UuidParam('cashDeskId') deskId: string,
    @Body() body: dto.CashDeskWithdrawalRequestDto,
    @Caller() caller: Principal,
  ): Promise<dto.CashDeskWithdrawalResultDto> {
    return { status: 'ok', message: 'Cash desk withdrawal made', process: await this.withdrawals.withdraw(caller, deskId, body) };
  }
}
