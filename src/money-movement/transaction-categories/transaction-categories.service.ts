import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { nameSortOf, Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import { OperationsService } from '../../platform/ledger/operations.service';
import type {
  CreateTransactionCategoryDto,
  TaggedOperationViewDto,
  TransactionCategoryDto,
  TransactionCategoryViewDto,
} from './dto/transaction-category.dto';
import { TransactionCategoriesRepository, TransactionCategoryRow } from './transaction-categories.repository';

/** A plain date (allowed by the date validators) means its midnight UTC, whatever the database session's zone. */
const asInstant = (value: string | undefined) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);

/**
 * Categories belong to the user who made them; another user's category is a 404, as is an
 * operation the caller's organization takes no part in. A tag is placed for the organization the
 * caller acts for, and is listed only while acting for it.
 */
@Injectable()
export class TransactionCategoriesService {
  constructor(
    private readonly categories: TransactionCategoriesRepository,
    private readonly operations: OperationsService,
  ) {}

  async create(principal: Principal, dto: CreateTransactionCategoryDto): Promise<TransactionCategoryDto> {
    const row = await this.categories.insert(principal.userId, {
      name: dto.name,
      color: dto.color ?? null,
      icon: dto.icon ?? null,
      imageLink: dto.imageLink ?? null,
    });
    if (!row) throw new ApiError('exception.transaction_category.name_taken', `You already have a category named "${dto.name}"`);
    return toCategory(row);
  }

  async view(principal: Principal, dto: TransactionCategoryViewDto): Promise<Page<TransactionCategoryDto>> {
    const { rows, count } = await this.categories.search({
      userId: principal.userId,
      ...(dto.filter ?? {}),
      sort: nameSortOf(dto.sort),
      ...pageWindow(dto),
    });
    return pageOf(dto, count.total, rows.map(toCategory), count.exact);
  }

  async delete(principal: Principal, id: string): Promise<TransactionCategoryDto> {
    const row = await this.categories.delete(principal.userId, id);
    if (!row) throw notFound();
    return toCategory(row);
  }

  /** Tags an operation the caller's organization takes part in; tagging it again changes nothing. */
  async tag(principal: Principal, id: string, operationId: string): Promise<TransactionCategoryDto> {
    const category = await this.own(principal, id);
    const operation = await this.operations.getVisible(operationId, principal);
    await this.categories.tag(category.id, operation.id, principal.organizationId, operation.createdAt);
    return toCategory(category);
  }

  async untag(principal: Principal, id: string, operationId: string): Promise<TransactionCategoryDto> {
    const category = await this.own(principal, id);
    if (!(await this.categories.untag(category.id, operationId, principal.organizationId))) {
      throw new ApiError('exception.transaction_category.not_tagged', 'The operation is not tagged with this category');
    }
    return toCategory(category);
  }

  /** The operations tagged with the category for the caller's organization, newest first by default. */
  async operationsOf(principal: Principal, id: string, dto: TaggedOperationViewDto): Promise<Page<OperationDto>> {
    const category = await this.own(principal, id);
    const direction = dto.sort?.createdAt === 'asc' ? 'ASC' : 'DESC';
    const { operationIds, count } = await this.categories.tagged({
      categoryId: category.id,
      organizationId: principal.organizationId,
      createdAtFrom: asInstant(dto.filter?.createdAtFrom),
      createdAtTo: asInstant(dto.filter?.createdAtTo),
      direction,
      ...pageWindow(dto),
    });
    let records: OperationDto[] = [];
    if (operationIds.length) {
      const found = await this.operations.view(
        principal,
        { pageNumber: 0, pageSize: operationIds.length },
        { ids: operationIds, sort: { key: 'createdAt', direction } },
      );
      const byId = new Map(found.records.map((o) => [o.id, o]));
      records = operationIds.flatMap((operationId) => byId.get(operationId) ?? []);
    }
    return pageOf(dto, count.total, records, count.exact);
  }

  private async own(principal: Principal, id: string): Promise<TransactionCategoryRow> {
    const row = await this.categories.own(principal.userId, id);
    if (!row) throw notFound();
    return row;
  }
}

const notFound = () => new ApiError('exception.transaction_category.not_found', 'No such transaction category');

function toCategory(row: TransactionCategoryRow): TransactionCategoryDto {
  return {
    id: row.id,
    name: row.name,
    code: codeOf(row.name),
    color: row.color,
    icon: row.icon,
    imageLink: row.image_link,
    createdAt: row.created_at.toISOString(),
  };
}

/** A category's code, from its name: lower case, letters and digits of any script, `_` between words (`Eating out!` → `eating_out`). */
export function codeOf(name: string): string {
  return (
    name
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '_')
      .replace(/^_+|_+$/g, '') || 'category'
  );
}
