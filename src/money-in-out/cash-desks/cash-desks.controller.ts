import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { CalculationDto } from '../../platform/commissions/dto/calculation.dto';
import { DeclineDto } from '../../platform/common/request-view.dto';
import { CashDeskOperationsService } from './cash-desk-operations.service';
import { CashDesksService } from './cash-desks.service';
import { CashOutCodesService } from './cash-out-codes.service';
import * as dto from './dto/cash-desk.dto';

const MANAGER = { access: ['CASH_DESK_MANAGER'] } as const;
const VIEWER = { access: ['CASH_DESK_VIEWER'] } as const;
/** A decision on a pending operation: it moves money, and a decided one is a 409. */
const DECISION = {
  status: 200,
  idempotent: true,
  errors: ['exception.cash_desk_operation.not_found', 'exception.cash_desk_operation.decided'],
} as const;
/** By the customer, on their coin. */
const CUSTOMER = { ...DECISION, access: ['CASH_DESK_CONFIRMER'] } as const;
/** By the desk's cashier. */
const DESK = { ...DECISION, access: ['CASH_DESK_OPERATOR'] } as const;

@Routes('cash-desks')
export class CashDesksController {
  constructor(private readonly desks: CashDesksService) {}

  /** Creates a cash desk (an organization of type `cash_desk`) with a cash coin per issuer given; cashiers join it by `POST /users`. */
  @Route('POST', '', { ...MANAGER, summary: 'Create a cash desk', errors: ['exception.issuer.not_found', 'exception.issuer.inactive'] })
  async createCashDesk(@Body() body: dto.CreateCashDeskDto): Promise<dto.CashDeskResultDto> {
    return { status: 'ok', message: 'Cash desk created', cashDesk: await this.desks.create(body) };
  }

  /**
   * The cash desks, by name; with `coinSerial`, those holding a cash coin of that coin's issuer. Auditors (TRANSACTION_AUDITOR)
   * and a desk's cashiers, for their desk, also see its cash coins; others see names only.
   */
  @Route('POST', 'view', {
    ...VIEWER,
    summary: 'List cash desks',
    status: 200,
    errors: [['exception.coin.not_found', 'no such coin of the caller’s (any, for staff)']],
  })
  viewCashDesks(@Body() body: dto.CashDeskViewDto, @Caller() caller: Principal): Promise<dto.CashDeskPageDto> {
    return this.desks.view(caller, body);
  }

  /** Opens the desk's cash coin of another issuer (one per issuer). */
  @Route('POST', ':id/coins', {
    ...MANAGER,
    summary: "Open a cash desk's cash coin",
    errors: ['exception.cash_desk.not_found', 'exception.issuer.not_found', 'exception.cash_desk.coin_exists', 'exception.issuer.inactive'],
  })
  async openCashDeskCoin(@UuidParam('id') id: string, @Body() body: dto.OpenCashCoinDto): Promise<dto.CashCoinResultDto> {
    return { status: 'ok', message: 'Cash coin opened', coin: await this.desks.openCoin(id, body.issuerId) };
  }
}

@Routes('cash-desk-operations', 'cash-desks')
export class CashDeskOperationsController {
  constructor(
    private readonly operations: CashDeskOperationsService,
    private readonly codes: CashOutCodesService,
  ) {}

  /**
   * A cashier enters a cash-in or cash-out for a customer's coin: what the payer pays is held until the customer confirms or the
   * desk completes (a `cash_out` only after presenting the customer's cash-out code), or it is declined.
   */
  @Route('POST', '', {
    access: ['CASH_DESK_OPERATOR'],
    idempotent: true,
    summary: 'Enter a cash desk operation',
    errors: ['exception.coin.not_found', 'exception.coin.insufficient_funds', 'exception.coin.closed', 'exception.cash_desk.no_cash_coin'],
  })
  async createCashDeskOperation(
    @Body() body: dto.CashDeskOperationRequestDto,
    @Caller() caller: Principal,
  ): Promise<dto.CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation entered', ...(await this.operations.create(caller, body)) };
  }

  /**
   * The customer's consent to a cash-out: a one-time code for one of their coins and the exact amount, shown only in this answer and
   * valid CASH_OUT_CODE_TTL_SECONDS (10 minutes by default); the cashier presents it with `POST …/{id}/authorize`.
   */
  @Route('POST', 'cash-out-codes', {
    access: ['CASH_OUT_CODE_CREATOR'],
    summary: 'Create a one-time cash-out code (the customer)',
    errors: [['exception.coin.not_found', 'no such coin of the caller’s organization'], 'exception.coin.inactive'],
  })
  async createCashOutCode(@Body() body: dto.CreateCashOutCodeDto, @Caller() caller: Principal): Promise<dto.CashOutCodeResultDto> {
    return { status: 'ok', message: 'Cash-out code created', cashOutCode: await this.codes.create(caller, body) };
  }

  /** The fee and what each side pays and gets, without moving money. */
  @Route('POST', 'calculate', {
    access: ['CASH_DESK_OPERATOR'],
    summary: 'Calculate a cash desk operation',
    status: 200,
    errors: ['exception.coin.not_found', 'exception.cash_desk.no_cash_coin'],
  })
  calculateCashDeskOperation(@Body() body: dto.CashDeskOperationRequestDto, @Caller() caller: Principal): Promise<CalculationDto> {
    return this.operations.calculate(caller, body);
  }

  /** Staff see every desk's operations, a desk's cashiers their desk's, customers those on their coins. */
  @Route('POST', 'view', { ...VIEWER, summary: 'Search cash desk operations', status: 200 })
  viewCashDeskOperations(@Body() body: dto.CashDeskOperationViewDto, @Caller() caller: Principal): Promise<dto.CashDeskOperationPageDto> {
    return this.operations.view(caller, body);
  }

  /** A cash desk operation with its status: auditors see every one, a desk's cashiers their desk's, customers those on their coins. */
  @Route('GET', ':id', { ...VIEWER, summary: 'Get a cash desk operation', errors: ['exception.cash_desk_operation.not_found'] })
  async getCashDeskOperation(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.CashDeskOperationRecordResultDto> {
    return { status: 'ok', message: 'OK', cashDeskOperation: await this.operations.get(caller, id) };
  }

  /** The customer confirms a pending operation on their coin: it settles in place. */
  @Route('POST', ':id/confirm', { ...CUSTOMER, summary: 'Confirm a cash desk operation (the customer)' })
  async confirmCashDeskOperation(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation confirmed', ...(await this.operations.confirm(caller, id)) };
  }

  /**
   * The desk's cashier presents the customer's cash-out code for a pending `cash_out` of the desk: the code is used up and the desk
   * may then complete it (this moves no money). A refused code counts as a wrong try: after 5, the coin's live codes are burnt.
   */
  @Route('POST', ':id/authorize', {
    access: ['CASH_DESK_OPERATOR'],
    summary: "Present a customer's cash-out code (the desk)",
    status: 200,
    errors: [
      'exception.cash_out_code.invalid',
      'exception.cash_desk_operation.not_found',
      'exception.cash_desk_operation.not_cash_out',
      'exception.cash_desk_operation.authorized',
      'exception.cash_desk_operation.decided',
    ],
  })
  async authorizeCashDeskOperation(
    @UuidParam('id') id: string,
    @Body() body: dto.AuthorizeCashOutDto,
    @Caller() caller: Principal,
  ): Promise<dto.CashDeskOperationRecordResultDto> {
    const cashDeskOperation = await this.operations.authorize(caller, id, body.cashOutCode);
    return { status: 'ok', message: 'Cash-out authorized by the customer’s code', cashDeskOperation };
  }

  /**
   * The desk's cashier completes a pending operation: it settles in place. Supervisors (CASH_DESK_SUPERVISOR) complete any desk's
   * `cash_in`; a `cash_out` only its desk completes, after presenting the customer's code.
   */
  @Route('POST', ':id/complete', {
    ...DESK,
    summary: 'Complete a cash desk operation (the desk)',
    errors: [...DESK.errors, 'exception.cash_desk_operation.consent_required'],
  })
  async completeCashDeskOperation(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation completed', ...(await this.operations.complete(caller, id)) };
  }

  /** The customer refuses a pending operation on their coin: the hold is released and the desk can no longer complete it. */
  @Route('POST', ':id/refuse', { ...CUSTOMER, summary: 'Refuse a cash desk operation (the customer)' })
  async refuseCashDeskOperation(
    @UuidParam('id') id: string,
    @Body() body: DeclineDto,
    @Caller() caller: Principal,
  ): Promise<dto.CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation refused', ...(await this.operations.refuse(caller, id, body.reason)) };
  }

  /** The desk's cashier (or staff with CASH_DESK_SUPERVISOR) declines a pending operation: the hold is released. */
  @Route('POST', ':id/decline', { ...DESK, summary: 'Decline a cash desk operation' })
  async declineCashDeskOperation(
    @UuidParam('id') id: string,
    @Body() body: DeclineDto,
    @Caller() caller: Principal,
  ): Promise<dto.CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation declined', ...(await this.operations.decline(caller, id, body.reason)) };
  }
}
