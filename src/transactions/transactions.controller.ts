import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { CurrentPrincipal, Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { UuidParam } from '../common/validators';
import { OperationResponseDto, TransactionPageDto, TransactionViewDto } from './dto/transaction.dto';
import { OperationsReader } from './operations.reader';

@ApiTags('transactions')
@Controller('transactions')
export class TransactionsController {
  constructor(private readonly operations: OperationsReader) {}

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
}
