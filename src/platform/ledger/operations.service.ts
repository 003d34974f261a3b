import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { Page, pageOf, PageRequestDto, pageWindow } from '../common/paging.dto';
import type { OperationDto } from './dto/operation.dto';
import { toOperationDto } from './operation.mapper';
import { OperationSearch, OperationsRepository } from './operations.repository';

/** Who sees which operations: auditors see all; everyone else the operations their organization takes part in. */
@Injectable()
export class OperationsService {
  constructor(private readonly operations: OperationsRepository) {}

  async getVisible(id: string, principal: Principal): Promise<OperationDto> {
    const row = await this.operations.get(id, this.visibleTo(principal));
    if (!row) throw new ApiError('exception.transaction.not_found', 'No such transaction');
    return toOperationDto(row);
  }

  async view(
    principal: Principal,
    page: PageRequestDto,
    search: Omit<OperationSearch, 'visibleTo' | 'offset' | 'limit'>,
  ): Promise<Page<OperationDto>> {
    const { rows, count } = await this.operations.search({
      ...search,
      visibleTo: this.visibleTo(principal),
      ...pageWindow(page),
    });
    return pageOf(page, count.total, rows.map(toOperationDto), count.exact);
  }

  private visibleTo(principal: Principal): string | undefined {
    return principal.permissions.has('TRANSACTION_AUDITOR') ? undefined : principal.organizationId;
  }
}
