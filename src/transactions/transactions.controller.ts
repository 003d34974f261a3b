import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Idempotency, IdempotencyContext, IdempotentRoute } from '../common/idempotency';
import { OperationResultDto } from '../transfers/dto/transfer.dto';
import { ReversalsService } from './reversals.service';
import { RequirePermissions } from '../access/access.decorators';
import { CurrentPrincipal, Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { UuidParam } from '../common/validators';
import { OperationResponseDto, ReverseOperationDto, TransactionPageDto, TransactionViewDto } from './dto/transaction.dto';
import { OperationsReader } from './operations.reader';

@ApiTags('transactions')
@Controller('transactions')
export class TransactionsController {
  constructor(
    private readonly operations: OperationsReader,
    private readonly reversals: ReversalsService,
  ) {}

  /** Searches operations touching the caller's coins (every operation for auditors), newest first by default. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('TRANSACTION_VIEWER')
  @ApiOperation({ summary: 'Search transactions' })
  @ApiOkResponse({ type: TransactionPageDto })
  view(@Body() dto: TransactionViewDto, @CurrentPrincipal() principal: Principal): Promise<TransactionPageDto> {
    return this.operations.view(dto, principal);
  }

  @Get(':id')
  @RequirePermissions('TRANSACTION_VIEWER')
  @ApiOperation({ summary: 'Get a transaction with its ledger entries' })
  @ApiOkResponse({ type: OperationResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<OperationResponseDto> {
    return { status: 'ok', message: 'OK', process: await this.operations.getVisible(id, principal) };
  }

  /** Reverses a completed operation with a linked operation of opposite entries; an operation is reversed once. */
  @Post(':id/reverse')
  @RequirePermissions('TRANSACTION_REVERSER')
  @IdempotentRoute()
  @ApiOperation({ summary: 'Reverse a completed operation (staff)' })
  @ApiCreatedResponse({ type: OperationResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  reverse(
    @UuidParam('id') id: string,
    @Body() dto: ReverseOperationDto,
    @CurrentPrincipal() principal: Principal,
    @Idempotency() idem: IdempotencyContext,
  ): Promise<OperationResultDto> {
    return this.reversals.reverse(principal, id, dto, idem);
  }
}
