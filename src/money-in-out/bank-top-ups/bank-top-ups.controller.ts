import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { OptionalDeclineDto, RequestIdParam } from '../../platform/common/request-view.dto';
import { UuidParam } from '../../platform/common/validators';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { OperationResultDto } from '../../platform/ledger/dto/operation.dto';
import { BankTopUpsService } from './bank-top-ups.service';
import { RequestCalculationDto } from './dto/bank-calculation.dto';
import { BankTopUpDto } from './dto/bank-top-up.dto';
import {
  BankTopUpDecisionDto,
  BankTopUpRequestDto,
  BankTopUpRequestPageDto,
  BankTopUpRequestResultDto,
  BankTopUpRequestViewDto,
} from './dto/bank-top-up-request.dto';

@ApiTags('bank-top-ups')
@Controller('bank-top-ups')
export class BankTopUpsController {
  constructor(private readonly topUps: BankTopUpsService) {}

  /** Credits a coin from its issuer's bank-settlement coin at once (staff); the answer carries customInformation (release 4.10.0). */
  @Post()
  @RequirePermissions('BANK_TOP_UP_MANAGER')
  @Idempotent()
  @ApiOperation({ summary: 'Bank top-up of a coin', operationId: 'createBankTopUp' })
  @ApiCreatedResponse({ type: OperationResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async topUp(@Body() dto: BankTopUpDto): Promise<OperationResultDto> {
    return { status: 'ok', message: 'Bank top-up completed', process: await this.topUps.topUp(dto) };
  }

  /**
   * Requests a top-up of one of the caller's coins (staff with BANK_TOP_UP_MANAGER: of any client
   * coin). The request is `new`: no money moves until staff accept it.
   */
  @Post('create-request')
  @RequirePermissions('BANK_TOP_UP_REQUESTER')
  @Idempotent()
  @ApiOperation({ summary: 'Request a bank top-up', operationId: 'createBankTopUpRequest' })
  @ApiCreatedResponse({ type: BankTopUpRequestResultDto })
  @ApiNotFoundResponse({ description: 'No such coin of the caller, or bankId not in the catalog', type: ErrorResponseDto })
  async request(@Body() dto: BankTopUpRequestDto, @CurrentPrincipal() principal: Principal): Promise<BankTopUpRequestResultDto> {
    return { status: 'ok', message: 'Bank top-up requested', bankTopUp: await this.topUps.request(principal, dto) };
  }

  /** Searches top-up requests: staff every organization's, others their own. Newest first by default. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('BANK_TOP_UP_REQUESTER')
  @ApiOperation({ summary: 'Search bank top-up requests', operationId: 'viewBankTopUpRequests' })
  @ApiOkResponse({ type: BankTopUpRequestPageDto })
  view(@Body() dto: BankTopUpRequestViewDto, @CurrentPrincipal() principal: Principal): Promise<BankTopUpRequestPageDto> {
    return this.topUps.view(principal, dto);
  }

  /** The fee and what the coin would be credited under its organization's contract, without moving money. */
  @Post('calculate')
  @HttpCode(200)
  @RequirePermissions('BANK_TOP_UP_REQUESTER')
  @ApiOperation({ summary: 'Calculate a bank top-up', operationId: 'calculateBankTopUp' })
  @ApiOkResponse({ type: RequestCalculationDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  calculate(@Body() dto: BankTopUpDto, @CurrentPrincipal() principal: Principal): Promise<RequestCalculationDto> {
    return this.topUps.calculate(principal, dto);
  }

  /**
   * A bank top-up request with its status and, once accepted, its `operationId`. The caller's organization's only
   * (every one for staff with TRANSACTION_AUDITOR); another's is a 404.
   */
  @Get(':id')
  @RequirePermissions('BANK_TOP_UP_REQUESTER')
  @ApiOperation({ summary: 'Get a bank top-up request', operationId: 'getBankTopUpRequest' })
  @ApiOkResponse({ type: BankTopUpRequestResultDto })
  @ApiNotFoundResponse({ description: 'No such request, or another organization’s', type: ErrorResponseDto })
  async get(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<BankTopUpRequestResultDto> {
    return { status: 'ok', message: 'OK', bankTopUp: await this.topUps.get(principal, id) };
  }

  /**
   * Accepts a `new` request, named by its id or its `requestIdentifier`: posts the top-up (fee by the rule in force) and
   * links it as `operationId`.
   */
  @Post(':id/accept')
  @HttpCode(200)
  @RequirePermissions('BANK_TOP_UP_MANAGER')
  @Idempotent()
  @ApiOperation({ summary: 'Accept a bank top-up request', operationId: 'acceptBankTopUpRequest' })
  @ApiOkResponse({ type: BankTopUpDecisionDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.bank_top_up.decided, or the coin is closed', type: ErrorResponseDto })
  async accept(@RequestIdParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<BankTopUpDecisionDto> {
    return { status: 'ok', message: 'Bank top-up accepted', ...(await this.topUps.accept(principal, id)) };
  }

  /** Declines a `new` request (by its id or `requestIdentifier`), with a reason or none; nothing moves. */
  @Post(':id/decline')
  @HttpCode(200)
  @RequirePermissions('BANK_TOP_UP_MANAGER')
  @Idempotent()
  @ApiOperation({ summary: 'Decline a bank top-up request', operationId: 'declineBankTopUpRequest' })
  @ApiOkResponse({ type: BankTopUpRequestResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.bank_top_up.decided', type: ErrorResponseDto })
  async decline(
    @RequestIdParam('id') id: string,
    @Body() dto: OptionalDeclineDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<BankTopUpRequestResultDto> {
    return { status: 'ok', message: 'Bank top-up declined', bankTopUp: await this.topUps.decline(principal, id, dto.reason) };
  }
}
