import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { Page, pageOf } from '../../platform/common/paging.dto';
import type { OperationDto, OperationRecordDto } from '../../platform/ledger/dto/operation.dto';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { OperationsService } from '../../platform/ledger/operations.service';
import type { OperationSortKey } from '../../platform/ledger/operations.repository';
import { FAMILY_STATUS_NAMES, familyTypeOf, serviceTypesOf } from '../../platform/ledger/operation-types';
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
    const records = await this.records(principal, page.records);
    return { ...page, records: records.map((record) => ({ ...record, type: familyTypeOf(record.type) })) };
  }

  /** Operations as the family's records show them to the caller: with its categories, the invoices paid and the points of sale. */
  async records(principal: Principal, operations: OperationDto[]): Promise<OperationRecordDto[]> {
    const links = await this.history.links(
      principal.userId,
      principal.organizationId,
      operations.map((op) => op.id),
    );
    const context: HistoryContext = {
      organizationId: principal.organizationId,
      links: new Map(links.map((l) => [l.operation_id, l])),
    };
    return operations.map((op) => toHistoryRecord(op, context));
  }

  get(principal: Principal, id: string): Promise<OperationDto> {
    return this.operations.getVisible(id, principal);
  }

  reverse(id: string, dto: ReverseOperationDto): Promise<OperationDto> {
    return this.ledger.reverse(id, dto);
  }
}
