import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { CurrentPrincipal, Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { Idempotency, IdempotencyContext, IdempotentRoute } from '../common/idempotency';
import { BankTopUpDto, OperationResultDto, TransferCalculationDto, TransferRequestDto } from './dto/transfer.dto';
import { TransfersService } from './transfers.service';

@ApiTags('transfers')
@Controller('transfers')
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  /** Moves money from one of the caller's coins to another coin of the same currency. */
  @Post()
  @RequirePermissions('TRANSFER_CREATOR')
  @IdempotentRoute()
  @ApiOperation({ summary: 'Transfer between coins' })
  @ApiCreatedResponse({ type: OperationResultDto })
  @ApiNotFoundResponse({ description: 'A coin does not exist or the payer coin is not the caller’s', type: ErrorResponseDto })
  transfer(
    @Body() dto: TransferRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Idempotency() idem: IdempotencyContext,
  ): Promise<OperationResultDto> {
    return this.transfers.transfer(principal, dto, idem);
  }

  /** What the payer and the payee would see, without moving money. */
  @Post('calculate')
  @HttpCode(200)
  @RequirePermissions('TRANSFER_CREATOR')
  @ApiOperation({ summary: 'Calculate a transfer' })
  @ApiOkResponse({ type: TransferCalculationDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  calculate(@Body() dto: TransferRequestDto, @CurrentPrincipal() principal: Principal): Promise<TransferCalculationDto> {
    return this.transfers.calculate(principal, dto);
  }
}

@ApiTags('bank-top-ups')
@Controller('bank-top-ups')
export class BankTopUpsController {
  constructor(private readonly transfers: TransfersService) {}

  /** Credits a coin from its issuer's bank-settlement coin; the answer carries customInformation (release 4.10.0). */
  @Post()
  @RequirePermissions('BANK_TOP_UP_MANAGER')
  @IdempotentRoute()
  @ApiOperation({ summary: 'Bank top-up of a coin' })
  @ApiCreatedResponse({ type: OperationResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  topUp(
    @Body() dto: BankTopUpDto,
    @CurrentPrincipal() principal: Principal,
    @Idempotency() idem: IdempotencyContext,
  ): Promise<OperationResultDto> {
    return this.transfers.bankTopUp(principal, dto, idem);
  }
}
