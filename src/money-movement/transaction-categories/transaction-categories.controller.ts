import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import * as dto from './dto/transaction-category.dto';
import { TransactionCategoriesService } from './transaction-categories.service';

const OWNER = { access: ['TRANSACTION_CATEGORY_OWNER'] } as const;
/** One of the caller's categories, by `id`. */
const ONE = { ...OWNER, errors: ['exception.transaction_category.not_found'] } as const;
/** The operations of the organization, seen through one of the caller's categories. */
const TAGGING = { ...ONE, access: ['TRANSACTION_CATEGORY_OWNER', 'TRANSACTION_VIEWER'] } as const;

/** The caller's own categories, and the operations they tag with them. */
@Routes('transaction-categories')
export class TransactionCategoriesController {
  constructor(private readonly categories: TransactionCategoriesService) {}

  /** The caller makes a category of their own to tag operations with (name, colour, icon). */
  @Route('POST', '', { ...OWNER, summary: 'Create a transaction category', errors: ['exception.transaction_category.name_taken'] })
  async createTransactionCategory(
    @Body() body: dto.CreateTransactionCategoryDto,
    @Caller() caller: Principal,
  ): Promise<dto.TransactionCategoryResponseDto> {
    return { status: 'ok', message: 'Category created', category: await this.categories.create(caller, body) };
  }

  /** The caller's categories, by name unless sorted otherwise. */
  @Route('POST', 'view', { ...OWNER, summary: "Search the caller's transaction categories", status: 200 })
  viewTransactionCategories(
    @Body() body: dto.TransactionCategoryViewDto,
    @Caller() caller: Principal,
  ): Promise<dto.TransactionCategoryPageDto> {
    return this.categories.view(caller, body);
  }

  /** Deletes one of the caller's categories and its tags; answers the deleted category. */
  @Route('DELETE', ':id', { ...ONE, summary: 'Delete a transaction category' })
  async deleteTransactionCategory(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.TransactionCategoryResponseDto> {
    return { status: 'ok', message: 'Category deleted', category: await this.categories.delete(caller, id) };
  }

  /** The operations tagged with the category (for the organization the caller acts for), newest first by default. */
  @Route('POST', ':id/operations/view', { ...TAGGING, summary: 'Search the operations tagged with a category', status: 200 })
  viewTransactionCategoryOperations(
    @UuidParam('id') id: string,
    @Body() body: dto.TaggedOperationViewDto,
    @Caller() caller: Principal,
  ): Promise<dto.TaggedOperationPageDto> {
    return this.categories.operationsOf(caller, id, body);
  }

  /** Tags an operation the caller's organization takes part in (`operationId`); tagging it again changes nothing. */
  @Route('POST', ':id/operations/:operationId', {
    ...TAGGING,
    summary: 'Tag an operation with a category',
    status: 200,
    errors: [...ONE.errors, ['exception.transaction.not_found', 'no operation the organization takes part in']],
  })
  async tagOperationWithCategory(
    @UuidParam('id') id: string,
    @UuidParam('operationId') operationId: string,
    @Caller() caller: Principal,
  ): Promise<dto.CategoryTagResponseDto> {
    return { status: 'ok', message: 'Operation tagged', category: await this.categories.tag(caller, id, operationId), operationId };
  }

  /** Takes one of the caller's categories off an operation of their organization; answers the category. */
  @Route('DELETE', ':id/operations/:operationId', {
    ...ONE,
    summary: 'Remove a category from an operation',
    errors: [...ONE.errors, 'exception.transaction_category.not_tagged'],
  })
  async untagOperationFromCategory(
    @UuidParam('id') id: string,
    @UuidParam('operationId') operationId: string,
    @Caller() caller: Principal,
  ): Promise<dto.CategoryTagResponseDto> {
    return { status: 'ok', message: 'Tag removed', category: await this.categories.untag(caller, id, operationId), operationId };
  }
}
