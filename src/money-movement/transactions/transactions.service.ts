import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import type { Page } from '../../platform/common/paging.dto';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { OperationsService } from '../../platform/ledger/operations.service';
import type { OperationSortKey } from '../../platform/ledger/operations.repository';
import type { ReverseOperationDto, TransactionViewDto } from './dto/transaction.dto';

const SORT_KEYS: OperationSortKey[] = ['status', 'type', 'createdAt'];

/** The history of operations, and their reversal. */
@Injectable()
export class TransactionsService {
  constructor(
    private readonly operations: OperationsService,
    private readonly ledger: LedgerService,
  ) {}

  view(principal: Principal, dto: TransactionViewDto): Promise<Page<OperationDto>> {
    const key = SORT_KEYS.find((k) => dto.sort?.[k] !== undefined) ?? 'createdAt';
    return this.operations.view(principal, dto, {
      ...(dto.filter ?? {}),
      sort: { key, direction: (dto.sort?.[key] ?? 'desc') === 'asc' ? 'ASC' : 'DESC' },
    });
  }

  get(principal: Principal, id: string): Promise<OperationDto> {
    return this.operations.getVisible(id, principal);
  }

  reverse(id: string, dto: ReverseOperationDto): Promise<OperationDto> {
    return this.ledger.reverse(id, dto);
  }
}
