import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { OperationResultDto } from '../../platform/ledger/dto/operation.dto';
import { HistoryPageDto, ReverseOperationDto, TransactionViewDto } from './dto/transaction.dto';
import { TransactionsService } from './transactions.service';

@ApiTags('transactions')
@Controller('transactions')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  /** Searches operations the caller's organization takes part in (every operation for auditors), newest first by default. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('TRANSACTION_VIEWER')
  @ApiOperation({ summary: 'Search transactions', operationId: 'viewTransactions' })
  @ApiOkResponse({ type: HistoryPageDto })
  view(@Body() dto: TransactionViewDto, @CurrentPrincipal() principal: Principal): Promise<HistoryPageDto> {
    return this.transactions.view(principal, dto);
  }

  /**
   * An operation with its ledger entries, commission and status: one the caller's organization takes part in (any for
   * staff with TRANSACTION_AUDITOR); any other is a 404.
   */
  @Get(':id')
  @RequirePermissions('TRANSACTION_VIEWER')
  @ApiOperation({ summary: 'Get a transaction with its ledger entries', operationId: 'getTransaction' })
  @ApiOkResponse({ type: OperationResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<OperationResultDto> {
    return { status: 'ok', message: 'OK', process: await this.transactions.get(principal, id) };
  }

  /** Reverses a completed operation with a linked operation of opposite entries; an operation is reversed once. */
  @Post(':id/reverse')
  @RequirePermissions('TRANSACTION_REVERSER')
  @Idempotent()
  @ApiOperation({ summary: 'Reverse a completed operation (staff)', operationId: 'reverseTransaction' })
  @ApiCreatedResponse({ type: OperationResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async reverse(@UuidParam('id') id: string, @Body() dto: ReverseOperationDto): Promise<OperationResultDto> {
    return { status: 'ok', message: 'Operation reversed', process: await this.transactions.reverse(id, dto) };
  }
}
