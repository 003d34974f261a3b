import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { CurrentPrincipal, Principal } from '../access/principal';
import { CalculationDto } from '../commissions/dto/calculation.dto';
import { ErrorResponseDto } from '../common/error-response.dto';
import { DeclineDto } from '../common/request-view.dto';
import { UuidParam } from '../common/validators';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { CashDeskOperationsService } from './cash-desk-operations.service';
import { CashDesksService } from './cash-desks.service';
import {
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

  @Post('view')
  @HttpCode(200)
  @RequirePermissions('CASH_DESK_VIEWER')
  @ApiOperation({ summary: 'List cash desks', operationId: 'viewCashDesks' })
  @ApiOkResponse({ type: CashDeskPageDto })
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
  constructor(private readonly operations: CashDeskOperationsService) {}

  /**
   * A cashier enters a cash-in or cash-out for a customer's coin, with the customer's full name
   * (at most 255 characters) and document. `amount` 0 is a 400 and nothing is created
   * (specification 7 and 8). What the payer pays is held until the customer confirms or the desk completes.
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

  /** The desk's cashier (or staff with CASH_DESK_SUPERVISOR) completes a pending operation: it settles in place. */
  @Post(':id/complete')
  @HttpCode(200)
  @RequirePermissions('CASH_DESK_OPERATOR')
  @Idempotent()
  @ApiOperation({ summary: 'Complete a cash desk operation (the desk)', operationId: 'completeCashDeskOperation' })
  @ApiOkResponse({ type: CashDeskOperationResultDto })
  @ApiNotFoundResponse({ description: 'No such operation of the caller’s desk', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.cash_desk_operation.decided', type: ErrorResponseDto })
  async complete(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<CashDeskOperationResultDto> {
    return { status: 'ok', message: 'Cash desk operation completed', ...(await this.operations.complete(principal, id)) };
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
