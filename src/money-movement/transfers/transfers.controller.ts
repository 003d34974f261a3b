import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { clientAddress } from '../../platform/common/http';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { OperationResultDto } from '../../platform/ledger/dto/operation.dto';
import { PAYEE_LOOKUPS_LIMITED } from '../coins/payee-lookups';
import { TransferCalculationDto, TransferRequestDto } from './dto/transfer.dto';
import { TransfersService } from './transfers.service';

@ApiTags('transfers')
@Controller('transfers')
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  /**
   * Moves money from one of the caller's coins to another coin of the same currency. Paid with a smart card
   * (`paymentTool.type: SMART_CARD`), the card's coin pays and the operation is a `card_payment`; a blocked card is a 409.
   */
  @Post()
  @RequirePermissions('TRANSFER_CREATOR')
  @Idempotent({ groupCommit: true })
  @ApiOperation({ summary: 'Transfer between coins', operationId: 'createTransfer' })
  @ApiCreatedResponse({ type: OperationResultDto })
  @ApiNotFoundResponse({
    description:
      'A coin or card does not exist, or the payer coin or card is not the caller’s (exception.coin.not_found, exception.payment_tool.not_found)',
    type: ErrorResponseDto,
  })
  async transfer(@Body() dto: TransferRequestDto, @CurrentPrincipal() principal: Principal): Promise<OperationResultDto> {
    return { status: 'ok', message: 'Transfer completed', process: await this.transfers.transfer(principal, dto) };
  }

  /** What the payer and the payee would see, without moving money. */
  @Post('calculate')
  @HttpCode(200)
  @RequirePermissions('TRANSFER_CREATOR')
  @ApiOperation({ summary: 'Calculate a transfer', operationId: 'calculateTransfer' })
  @ApiOkResponse({ type: TransferCalculationDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.smart_card.blocked: a smart card named is blocked', type: ErrorResponseDto })
  @ApiTooManyRequestsResponse(PAYEE_LOOKUPS_LIMITED)
  calculate(
    @Body() dto: TransferRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: ApiRequest,
  ): Promise<TransferCalculationDto> {
    return this.transfers.calculateForPayer(principal, dto, clientAddress(request));
  }
}
