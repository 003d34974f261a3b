import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { CalculationDto } from '../../platform/commissions/dto/calculation.dto';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { DeclineDto } from '../../platform/common/request-view.dto';
import { UuidParam } from '../../platform/common/validators';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { CashDeskOperationsService } from './cash-desk-operations.service';
import { CashDesksService } from './cash-desks.service';
import { CashOutCodesService } from './cash-out-codes.service';
import {
  AuthorizeCashOutDto,
  CashOutCodeResultDto,
  CashCoinResultDto,
  CashDeskOperationPageDto,
  CashDeskOperationRecordResultDto,
  CashDeskOperationRequestDto,
  CashDeskOperationResultDto,
  CashDeskOperationViewDto,
  CashDeskPageDto,
  CashDeskResultDto,
  CashDeskViewDto,
  CreateCashDeskDto,
  CreateCashOutCodeDto,
  OpenCashCoinDto,
} from './dto/cash-desk.dto';

@ApiTags('cash-desks')
@Controller('cash-desks')
export class CashDesksController {
  constructor(private readonly desks: CashDesksService) {}

  /** Creates a cash desk (an organization of type `cash_desk`) with a cash coin per issuer given; cashiers join it through `POST /users`. */
  @Post()
  @RequirePermissions('CASH_DESK_MANAGER')
  @ApiOperation({ summary: 'Create a cash desk', operationId: 'createCashDesk' })
  @ApiCreatedResponse({ type: CashDeskResultDto })
  @ApiNotFoundResponse({ description: 'An issuer does not exist', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'An issuer or its currency is inactive', type: ErrorResponseDto })
  async create(@Body() dto: CreateCashDeskDto): Promise<CashDeskResultDto> {
    return { status: 'ok', message: 'Cash desk created', cashDesk: await this.desks.create(dto) };
  }

  /**
   * The cash desks, by name, to choose where to take cash in or out. Staff with TRANSACTION_AUDITOR, and a desk's own
   * cashiers for their desk, also see its cash coins; others see names only. With `coinSerial`, only the desks that
   * hold a cash coin of that coin's issuer.
   */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('CASH_DESK_VIEWER')
  @ApiOperation({ summary: 'List cash desks', operationId: 'viewCashDesks' })
  @ApiOkResponse({ type: CashDeskPageDto })
  @ApiNotFoundResponse({ description: 'exception.coin.not_found: no such coin of the caller’s (any, for staff)', type: ErrorResponseDto })
  view(@Body() dto: CashDeskViewDto, @CurrentPrincipal() principal: Principal): Promise<CashDeskPageDto> {
    return this.desks.view(principal, dto);
  }

  /** Opens the desk's cash coin of another issuer (one per issuer). */
  @Post(':id/coins')
  @RequirePermissions('CASH_DESK_MANAGER')
  @ApiOperation({ summary: "Open a cash desk's cash coin", operationId: 'openCashDeskCoin' })
  @ApiCreatedResponse({ type: CashCoinResultDto })
  @ApiNotFoundResponse({ description: 'No such cash desk or issuer', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.cash_desk.coin_exists, or the issuer is inactive', type: ErrorResponseDto })
  async openCoin(@UuidParam('id') id: string, @Body() dto: OpenCashCoinDto): Promise<CashCoinResultDto> {
    return { status: 'ok', message: 'Cash coin opened', coin: await this.desks.openCoin(id, dto.issuerId) };
  }
}

@ApiTags('cash-desks')
@Controller('cash-desk-operations')
export class CashDeskOperationsController {
  constructor(
    private readonly operations: CashDeskOperationsService,
    private readonly codes: CashOutCodesService,
  ) {}

  /**
   * A cashier enters a cash-in or cash-out for a customer's coin (an individual's or a merchant's), with the
   * customer's full name (at most 255 characters) and document. `amount` 0 is a 400 and nothing is created
   * (specification 7 and 8). What the payer pays is held until the customer confirms or the desk completes (a
   * `cash_out` only after presenting the customer's cash-out code), or it is declined.
   */
  @Post()
  @RequirePermissions('CASH_DESK_OPERATOR')
  @Idempotent()
  @ApiOperation({ summary: 'Enter a cash desk operation', operationId: 'createCashDeskOperation' })
  @ApiCreatedResponse({ type: CashDeskOperationResultDto })
  @ApiNotFoundResponse({ description: 'No such coin', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'Insufficient funds, a closed coin, or no cash coin of the issuer', type: ErrorResponseDto })
  async create(@Body() dto: CashDeskOperationRequestDto, @CurrentPrincipal() principal: Principal): Promise<CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation entered', ...(await this.operations.create(principal, dto)) };
  }

  /**
   * The customer consents to a cash-out at a desk: a one-time code for one of their coins and the exact amount
   * the desk will hand over, shown only in this answer, valid CASH_OUT_CODE_TTL_SECONDS (10 minutes by default).
   * They read it out to the cashier, who presents it with `POST …/{id}/authorize`.
   */
  @Post('cash-out-codes')
  @RequirePermissions('CASH_OUT_CODE_CREATOR')
  @ApiOperation({ summary: 'Create a one-time cash-out code (the customer)', operationId: 'createCashOutCode' })
  @ApiCreatedResponse({ type: CashOutCodeResultDto })
  @ApiNotFoundResponse({ description: 'No such coin of the caller’s organization', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.coin.inactive', type: ErrorResponseDto })
  async createCode(@Body() dto: CreateCashOutCodeDto, @CurrentPrincipal() principal: Principal): Promise<CashOutCodeResultDto> {
    return { status: 'ok', message: 'Cash-out code created', cashOutCode: await this.codes.create(principal, dto) };
  }

  /** The fee and what each side pays and gets, without moving money. */
  @Post('calculate')
  @HttpCode(200)
  @RequirePermissions('CASH_DESK_OPERATOR')
  @ApiOperation({ summary: 'Calculate a cash desk operation', operationId: 'calculateCashDeskOperation' })
  @ApiOkResponse({ type: CalculationDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.cash_desk.no_cash_coin', type: ErrorResponseDto })
  calculate(@Body() dto: CashDeskOperationRequestDto, @CurrentPrincipal() principal: Principal): Promise<CalculationDto> {
    return this.operations.calculate(principal, dto);
  }

  /** Staff see every desk's operations, a desk's cashiers their desk's, customers those on their coins. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('CASH_DESK_VIEWER')
  @ApiOperation({ summary: 'Search cash desk operations', operationId: 'viewCashDeskOperations' })
  @ApiOkResponse({ type: CashDeskOperationPageDto })
  view(@Body() dto: CashDeskOperationViewDto, @CurrentPrincipal() principal: Principal): Promise<CashDeskOperationPageDto> {
    return this.operations.view(principal, dto);
  }

  /**
   * A cash desk operation with its status. Staff with TRANSACTION_AUDITOR see every one, a desk's cashiers their
   * desk's, customers those on their coins; any other is a 404.
   */
  @Get(':id')
  @RequirePermissions('CASH_DESK_VIEWER')
  @ApiOperation({ summary: 'Get a cash desk operation', operationId: 'getCashDeskOperation' })
  @ApiOkResponse({ type: CashDeskOperationRecordResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<CashDeskOperationRecordResultDto> {
    return { status: 'ok', message: 'OK', cashDeskOperation: await this.operations.get(principal, id) };
  }

  /** The customer confirms a pending operation on their coin: it settles in place. */
  @Post(':id/confirm')
  @HttpCode(200)
  @RequirePermissions('CASH_DESK_CONFIRMER')
  @Idempotent()
  @ApiOperation({ summary: 'Confirm a cash desk operation (the customer)', operationId: 'confirmCashDeskOperation' })
  @ApiOkResponse({ type: CashDeskOperationResultDto })
  @ApiNotFoundResponse({ description: 'No such operation on the caller’s coins', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.cash_desk_operation.decided', type: ErrorResponseDto })
  async confirm(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation confirmed', ...(await this.operations.confirm(principal, id)) };
  }

  /**
   * The desk's cashier presents the cash-out code the customer read out, for a pending `cash_out` of the desk. A
   * live code of that coin and that exact amount is used up, and the desk may then complete the operation. It
   * moves no money itself. A wrong, expired, used or burnt code, or one made for another coin or amount, is a
   * `403 exception.cash_out_code.invalid` and counts as a wrong try: after 5 the coin's live codes are burnt.
   */
  @Post(':id/authorize')
  @HttpCode(200)
  @RequirePermissions('CASH_DESK_OPERATOR')
  @ApiOperation({ summary: "Present a customer's cash-out code (the desk)", operationId: 'authorizeCashDeskOperation' })
  @ApiOkResponse({ type: CashDeskOperationRecordResultDto })
  @ApiForbiddenResponse({ description: 'exception.cash_out_code.invalid', type: ErrorResponseDto })
  @ApiNotFoundResponse({ description: 'No such operation of the caller’s desk', type: ErrorResponseDto })
  @ApiConflictResponse({
    description:
      'exception.cash_desk_operation.not_cash_out, exception.cash_desk_operation.authorized, exception.cash_desk_operation.decided',
    type: ErrorResponseDto,
  })
  async authorize(
    @UuidParam('id') id: string,
    @Body() dto: AuthorizeCashOutDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CashDeskOperationRecordResultDto> {
    return {
      status: 'ok',
      message: 'Cash-out authorized by the customer’s code',
      cashDeskOperation: await this.operations.authorize(principal, id, dto.cashOutCode),
    };
  }

  /**
   * The desk's cashier completes a pending operation: it settles in place. Staff with CASH_DESK_SUPERVISOR complete
   * any desk's `cash_in`. A `cash_out` only its desk completes, after presenting the customer's code (else
   * `403 exception.cash_desk_operation.consent_required`, and nothing moves).
   */
  @Post(':id/complete')
  @HttpCode(200)
  @RequirePermissions('CASH_DESK_OPERATOR')
  @Idempotent()
  @ApiOperation({ summary: 'Complete a cash desk operation (the desk)', operationId: 'completeCashDeskOperation' })
  @ApiOkResponse({ type: CashDeskOperationResultDto })
  @ApiForbiddenResponse({ description: 'exception.cash_desk_operation.consent_required', type: ErrorResponseDto })
  @ApiNotFoundResponse({ description: 'No such operation of the caller’s desk', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.cash_desk_operation.decided', type: ErrorResponseDto })
  async complete(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation completed', ...(await this.operations.complete(principal, id)) };
  }

  /**
   * The customer refuses a pending operation on their coin — a cash-out they did not ask for, or one they changed
   * their mind about: the hold is released and the desk can no longer complete it.
   */
  @Post(':id/refuse')
  @HttpCode(200)
  @RequirePermissions('CASH_DESK_CONFIRMER')
  @Idempotent()
  @ApiOperation({ summary: 'Refuse a cash desk operation (the customer)', operationId: 'refuseCashDeskOperation' })
  @ApiOkResponse({ type: CashDeskOperationResultDto })
  @ApiNotFoundResponse({ description: 'No such operation on the caller’s coins', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.cash_desk_operation.decided', type: ErrorResponseDto })
  async refuse(
    @UuidParam('id') id: string,
    @Body() dto: DeclineDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation refused', ...(await this.operations.refuse(principal, id, dto.reason)) };
  }

  /** The desk's cashier (or staff with CASH_DESK_SUPERVISOR) declines a pending operation: the hold is released. */
  @Post(':id/decline')
  @HttpCode(200)
  @RequirePermissions('CASH_DESK_OPERATOR')
  @Idempotent()
  @ApiOperation({ summary: 'Decline a cash desk operation', operationId: 'declineCashDeskOperation' })
  @ApiOkResponse({ type: CashDeskOperationResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.cash_desk_operation.decided', type: ErrorResponseDto })
  async decline(
    @UuidParam('id') id: string,
    @Body() dto: DeclineDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation declined', ...(await this.operations.decline(principal, id, dto.reason)) };
  }
}
