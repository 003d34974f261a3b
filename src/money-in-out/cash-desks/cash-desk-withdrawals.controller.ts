import { applyDecorators, Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { RequestCalculationDto } from '../bank-top-ups/dto/bank-calculation.dto';
import { CashDeskWithdrawalsService } from './cash-desk-withdrawals.service';
import { CashDeskWithdrawalRequestDto, CashDeskWithdrawalResultDto } from './dto/cash-desk.dto';

const DESK = {
  name: 'cashDeskId',
  schema: { type: 'string', format: 'uuid' },
  description: 'The cash desk (an organization of type cash_desk)',
};
/** The refusals both routes share. */
const WithdrawalErrors = () =>
  applyDecorators(
    ApiBadRequestResponse({ description: 'exception.validation: a malformed body, or a technical coin', type: ErrorResponseDto }),
    ApiForbiddenResponse({ description: 'Only an individual or a merchant withdraws at a cash desk', type: ErrorResponseDto }),
    ApiNotFoundResponse({
      description: 'exception.coin.not_found (not the caller’s coin) or exception.cash_desk.not_found',
      type: ErrorResponseDto,
    }),
  );

/** A customer withdraws cash at a cash desk (the family's withdrawal form). */
@ApiTags('cash-desks')
@Controller('cash-desk-withdrawals')
export class CashDeskWithdrawalsController {
  constructor(private readonly withdrawals: CashDeskWithdrawalsService) {}

  /** The fee and what each side pays and gets, without moving money. */
  @Post(':cashDeskId/calculate')
  @HttpCode(200)
  @RequirePermissions('CASH_OUT_CODE_CREATOR')
  @ApiParam(DESK)
  @ApiOperation({ summary: 'Calculate a withdrawal at a cash desk', operationId: 'calculateCashDeskWithdrawal' })
  @ApiOkResponse({ type: RequestCalculationDto })
  @WithdrawalErrors()
  @ApiConflictResponse({
    description: 'exception.cash_desk.no_cash_coin: the desk pays out no cash of this coin’s issuer',
    type: ErrorResponseDto,
  })
  calculate(
    @UuidParam('cashDeskId') deskId: string,
    @Body() dto: CashDeskWithdrawalRequestDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<RequestCalculationDto> {
    return this.withdrawals.calculate(principal, deskId, dto);
  }

  /**
   * The customer's coin pays the desk's cash coin of its issuer the amount (and a fee on top, by their contract) at
   * once, a `cash_desk_redeem` operation; the desk hands the cash to `receiverName`.
   */
  @Post(':cashDeskId')
  @RequirePermissions('CASH_OUT_CODE_CREATOR')
  @Idempotent({ groupCommit: true })
  @ApiParam(DESK)
  @ApiOperation({ summary: 'Withdraw cash at a cash desk', operationId: 'createCashDeskWithdrawal' })
  @ApiCreatedResponse({ type: CashDeskWithdrawalResultDto })
  @WithdrawalErrors()
  @ApiConflictResponse({
    description: 'Insufficient funds, a closed or inactive coin, or exception.cash_desk.no_cash_coin',
    type: ErrorResponseDto,
  })
  async withdraw(
    @UuidParam('cashDeskId') deskId: string,
    @Body() dto: CashDeskWithdrawalRequestDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CashDeskWithdrawalResultDto> {
    return { status: 'ok', message: 'Cash desk withdrawal made', process: await this.withdrawals.withdraw(principal, deskId, dto) };
  }
}
