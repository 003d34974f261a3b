import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { Page, pageOf } from '../../platform/common/paging.dto';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { OperationsService } from '../../platform/ledger/operations.service';
import type { OperationSortKey } from '../../platform/ledger/operations.repository';
import { FAMILY_STATUS_NAMES, serviceTypesOf } from '../../platform/ledger/operation-types';
import type { HistoryRecordDto, ReverseOperationDto, TransactionViewDto } from './dto/transaction.dto';
import { HistoryContext, toHistoryRecord } from './history';
import { TransactionsRepository } from './transactions.repository';

const SORT_KEYS: OperationSortKey[] = ['status', 'type', 'createdAt'];

/** The history of operations, and their reversal. */
@Injectable()
export class TransactionsService {
  constructor(
    private readonly operations: OperationsService,
    private readonly ledger: LedgerService,
    private readonly history: TransactionsRepository,
  ) {}

  /** The history in the family's vocabulary: its type and status names are accepted in filters, and records answer in it. */
  async view(principal: Principal, dto: TransactionViewDto): Promise<Page<HistoryRecordDto>> {
    const key = SORT_KEYS.find((k) => dto.sort?.[k] !== undefined) ?? 'createdAt';
    const { types, statuses, paymentIdentifiers, ...filter } = dto.filter ?? {};
    const serviceTypes = types?.length ? serviceTypesOf(types) : undefined;
    // Only family types the service has no operations of: nothing matches.
    if (serviceTypes?.length === 0) return pageOf(dto, 0, []);
    const page = await this.operations.view(principal, dto, {
      ...filter,
      types: serviceTypes,
      statuses: statuses?.map((s) => FAMILY_STATUS_NAMES[s] ?? s),
      requestIdentifiers: paymentIdentifiers,
      sort: { key, direction: (dto.sort?.[key] ?? 'desc') === 'asc' ? 'ASC' : 'DESC' },
    });
    const categories = await this.history.categories(
      principal.userId,
      principal.organizationId,
      page.records.map((op) => op.id),
    );
    const context: HistoryContext = {
      organizationId: principal.organizationId,
      categories: new Map(categories.map((c) => [c.operation_id, c])),
    };
    return { ...page, records: page.records.map((op) => toHistoryRecord(op, context)) };
  }

  get(principal: Principal, id: string): Promise<OperationDto> {
    return this.operations.getVisible(id, principal);
  }

  reverse(id: string, dto: ReverseOperationDto): Promise<OperationDto> {
    return this.ledger.reverse(id, dto);
  }
}
