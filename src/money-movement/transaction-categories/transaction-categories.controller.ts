import { Body, Controller, Delete, HttpCode, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import {
  CategoryTagResponseDto,
  CreateTransactionCategoryDto,
  TaggedOperationPageDto,
  TaggedOperationViewDto,
  TransactionCategoryPageDto,
  TransactionCategoryResponseDto,
  TransactionCategoryViewDto,
} from './dto/transaction-category.dto';
import { TransactionCategoriesService } from './transaction-categories.service';

const OPERATION_ID = { name: 'operationId', description: 'An operation the organization takes part in' } as const;

/** The caller's own categories, and the operations they tag with them. */
@ApiTags('transaction-categories')
@Controller('transaction-categories')
export class TransactionCategoriesController {
  constructor(private readonly categories: TransactionCategoriesService) {}

  /**
   * The caller makes a category of their own to tag operations with (name, colour, icon); a second category of the same
   * name is a 409.
   */
  @Post()
  @RequirePermissions('TRANSACTION_CATEGORY_OWNER')
  @ApiOperation({ summary: 'Create a transaction category', operationId: 'createTransactionCategory' })
  @ApiCreatedResponse({ type: TransactionCategoryResponseDto })
  @ApiConflictResponse({ description: 'exception.transaction_category.name_taken', type: ErrorResponseDto })
  async create(
    @Body() dto: CreateTransactionCategoryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TransactionCategoryResponseDto> {
    return { status: 'ok', message: 'Category created', category: await this.categories.create(principal, dto) };
  }

  /** The caller's categories, by name unless sorted otherwise. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('TRANSACTION_CATEGORY_OWNER')
  @ApiOperation({ summary: "Search the caller's transaction categories", operationId: 'viewTransactionCategories' })
  @ApiOkResponse({ type: TransactionCategoryPageDto })
  view(@Body() dto: TransactionCategoryViewDto, @CurrentPrincipal() principal: Principal): Promise<TransactionCategoryPageDto> {
    return this.categories.view(principal, dto);
  }

  /** Deletes one of the caller's categories and its tags; answers the deleted category. */
  @Delete(':id')
  @RequirePermissions('TRANSACTION_CATEGORY_OWNER')
  @ApiOperation({ summary: 'Delete a transaction category', operationId: 'deleteTransactionCategory' })
  @ApiOkResponse({ type: TransactionCategoryResponseDto })
  @ApiNotFoundResponse({ description: 'exception.transaction_category.not_found', type: ErrorResponseDto })
  async delete(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<TransactionCategoryResponseDto> {
    return { status: 'ok', message: 'Category deleted', category: await this.categories.delete(principal, id) };
  }

  /** The operations tagged with the category (for the organization the caller acts for), newest first by default. */
  @Post(':id/operations/view')
  @HttpCode(200)
  @RequirePermissions('TRANSACTION_CATEGORY_OWNER', 'TRANSACTION_VIEWER')
  @ApiOperation({ summary: 'Search the operations tagged with a category', operationId: 'viewTransactionCategoryOperations' })
  @ApiOkResponse({ type: TaggedOperationPageDto })
  @ApiNotFoundResponse({ description: 'exception.transaction_category.not_found', type: ErrorResponseDto })
  operations(
    @UuidParam('id') id: string,
    @Body() dto: TaggedOperationViewDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TaggedOperationPageDto> {
    return this.categories.operationsOf(principal, id, dto);
  }

  /** Tags an operation the caller's organization takes part in; tagging it again changes nothing. */
  @Post(':id/operations/:operationId')
  @ApiParam(OPERATION_ID)
  @HttpCode(200)
  @RequirePermissions('TRANSACTION_CATEGORY_OWNER', 'TRANSACTION_VIEWER')
  @ApiOperation({ summary: 'Tag an operation with a category', operationId: 'tagOperationWithCategory' })
  @ApiOkResponse({ type: CategoryTagResponseDto })
  @ApiNotFoundResponse({
    description:
      'exception.transaction_category.not_found, or exception.transaction.not_found: no operation the organization takes part in',
    type: ErrorResponseDto,
  })
  async tag(
    @UuidParam('id') id: string,
    @UuidParam('operationId') operationId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CategoryTagResponseDto> {
    return { status: 'ok', message: 'Operation tagged', category: await this.categories.tag(principal, id, operationId), operationId };
  }

  /**
   * Takes one of the caller's categories off an operation of their organization; answers the category. An operation not
   * tagged with it is a 404 (exception.transaction_category.not_tagged).
   */
  @Delete(':id/operations/:operationId')
  @ApiParam(OPERATION_ID)
  @RequirePermissions('TRANSACTION_CATEGORY_OWNER')
  @ApiOperation({ summary: 'Remove a category from an operation', operationId: 'untagOperationFromCategory' })
  @ApiOkResponse({ type: CategoryTagResponseDto })
  @ApiNotFoundResponse({
    description: 'exception.transaction_category.not_found or exception.transaction_category.not_tagged',
    type: ErrorResponseDto,
  })
  async untag(
    @UuidParam('id') id: string,
    @UuidParam('operationId') operationId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CategoryTagResponseDto> {
    return { status: 'ok', message: 'Tag removed', category: await this.categories.untag(principal, id, operationId), operationId };
  }
}
