import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { OperationResultDto } from '../../platform/ledger/dto/operation.dto';
import * as dto from './dto/transaction.dto';
import { TransactionsService } from './transactions.service';

const VIEWER = { access: ['TRANSACTION_VIEWER'] } as const;

@Routes('transactions')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  /** Searches operations the caller's organization takes part in (every operation for auditors), newest first by default. */
  @Route('POST', 'view', { ...VIEWER, summary: 'Search transactions', status: 200 })
  viewTransactions(@Body() body: dto.TransactionViewDto, @Caller() caller: Principal): Promise<dto.HistoryPageDto> {
    return this.transactions.view(caller, body);
  }

  /** An operation with its ledger entries, commission and status: one the caller's organization takes part in (any, for auditors). */
  @Route('GET', ':id', { ...VIEWER, summary: 'Get a transaction with its ledger entries', errors: ['exception.transaction.not_found'] })
  async getTransaction(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<OperationResultDto> {
    return { status: 'ok', message: 'OK', process: await this.transactions.get(caller, id) };
  }

  /** Reverses a completed operation with a linked operation of opposite entries; an operation is reversed once. */
  @Route('POST', ':id/reverse', {
    access: ['TRANSACTION_REVERSER'],
    idempotent: true,
    summary: 'Reverse a completed operation (staff)',
    errors: ['exception.transaction.not_found', 'exception.transaction.already_reversed', 'exception.transaction.is_reversal'],
  })
  async reverseTransaction(@UuidParam('id') id: string, @Body() body: dto.ReverseOperationDto): Promise<OperationResultDto> {
    return { status: 'ok', message: 'Operation reversed', process: await this.transactions.reverse(id, body) };
  }
}
