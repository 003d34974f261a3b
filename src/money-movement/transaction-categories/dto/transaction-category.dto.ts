import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { NameSortDto, PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { UuidList } from '../../../platform/common/validators';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';
import { TransactionFilterDto } from '../../transactions/dto/transaction.dto';
import { ApiDateTime, ApiExample, ApiTextOrNull, ApiUuid, Nested } from '../../../platform/common/dto-fields';

export const CATEGORY_NAME_MAX = 100;
export const CATEGORY_ICON_MAX = 50;
const COLOR = /^#[0-9A-Fa-f]{6}$/;

export class CreateTransactionCategoryDto {
  /** Unique among the caller's categories, whatever its case (`Food` and `food` are one name). */
  @ApiProperty({ example: 'Groceries', minLength: 1, maxLength: CATEGORY_NAME_MAX })
  @IsString()
  @MinLength(1)
  @MaxLength(CATEGORY_NAME_MAX)
  @Matches(/\S/, { message: 'must not be blank' })
  name: string;

  /** A colour for the category, `#RRGGBB`. */
  @ApiPropertyOptional({ type: String, nullable: true, example: '#2E7D32', pattern: COLOR.source })
  @IsOptional()
  @IsString()
  @Matches(COLOR, { message: 'must be a colour such as #2E7D32' })
  color?: string | null;

  /** The name of an icon the client shows for the category. */
  @ApiPropertyOptional({ type: String, nullable: true, example: 'shopping-cart', minLength: 1, maxLength: CATEGORY_ICON_MAX })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(CATEGORY_ICON_MAX)
  icon?: string | null;

  /** A picture of the category, an `https` address the client shows. */
  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://cdn.example.com/categories/groceries.png', maxLength: 2048 })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @Matches(/^https:\/\/\S+$/, { message: 'must be an https address' })
  imageLink?: string | null;
}

/** A category the caller tags operations with. Each user has their own. */
export class TransactionCategoryDto {
  @ApiUuid()
  id: string;
  @ApiExample('Groceries')
  name: string;
  /** The name as a code, as the family's clients key categories: lower case, `_` between words (`Eating out` → `eating_out`). */
  @ApiExample('groceries')
  code: string;
  @ApiTextOrNull('#2E7D32')
  color: string | null;
  @ApiTextOrNull('shopping-cart')
  icon: string | null;
  @ApiTextOrNull('https://cdn.example.com/categories/groceries.png')
  imageLink: string | null;
  @ApiDateTime()
  createdAt: string;
}

export class TransactionCategoryResponseDto {
  status: 'ok';
  message: string;
  category: TransactionCategoryDto;
}

export class TransactionCategoryFilterDto {
  /** Part of the name, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(CATEGORY_NAME_MAX)
  name?: string;

  /** Categories any of these operations is tagged with. */
  @UuidList()
  operationIds?: string[];
}

export class TransactionCategorySortDto extends NameSortDto {}

export class TransactionCategoryViewDto extends PageRequestDto {
  @Nested(() => TransactionCategoryFilterDto, 'optional')
  filter?: TransactionCategoryFilterDto;

  @Nested(() => TransactionCategorySortDto, 'optional')
  sort?: TransactionCategorySortDto;
}

export class TransactionCategoryPageDto extends PageDto {
  records: TransactionCategoryDto[];
}

/** The answer of tagging an operation, and of removing the tag. */
export class CategoryTagResponseDto {
  status: 'ok';
  message: string;
  category: TransactionCategoryDto;
  @ApiUuid()
  operationId: string;
}

export class TaggedOperationFilterDto extends PickType(TransactionFilterDto, ['createdAtFrom', 'createdAtTo']) {}

export class TaggedOperationSortDto {
  /** The default: newest first. */
  @SortOrder()
  createdAt?: 'asc' | 'desc';
}

export class TaggedOperationViewDto extends PageRequestDto {
  @Nested(() => TaggedOperationFilterDto, 'optional')
  filter?: TaggedOperationFilterDto;

  @Nested(() => TaggedOperationSortDto, 'optional')
  sort?: TaggedOperationSortDto;
}

/** The operations tagged with a category, as `POST /transactions/view` answers them. */
export class TaggedOperationPageDto extends PageDto {
  records: OperationDto[];
}
