import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Omittable } from './validators';
import { ApiInteger } from './dto-fields';

/**
 * The most records one `all: true` answer holds. A search matching more answers the first this many (in its order)
 * with `truncated: true`; the rest are reached by paging.
 */
export const MAX_UNPAGED_RECORDS = 10_000;

/** A sort field of a `/view` search: `asc` or `desc`. */
export function SortOrder(): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ enum: ['asc', 'desc'] }), IsOptional(), IsIn(['asc', 'desc']));
}

/** The sort of a `/view` of things the caller names (categories, transfer templates): by name unless only createdAt is given. */
export class NameSortDto {
  /** The default: by name, ascending. */
  @SortOrder()
  name?: 'asc' | 'desc';

  @SortOrder()
  createdAt?: 'asc' | 'desc';
}

/** What a NameSortDto asks for: one key and its direction. */
export interface NameSort {
  key: 'name' | 'createdAt';
  direction: 'ASC' | 'DESC';
}

export function nameSortOf(sort: NameSortDto | undefined): NameSort {
  const key = sort?.createdAt !== undefined && sort?.name === undefined ? 'createdAt' : 'name';
  return { key, direction: (sort?.[key] ?? 'asc') === 'desc' ? 'DESC' : 'ASC' };
}

/** The paging fields of every `/view` request. */
export class PageRequestDto {
  /** Page to return, counting from 0. */
  @ApiProperty({ required: false, default: 0, minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  pageNumber?: number;

  /** Records per page, 1 to 1000. */
  @ApiProperty({ required: false, default: 20, minimum: 1, maximum: 1000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  pageSize?: number;

  /**
   * Every record matching the filter on one page (pageNumber and pageSize are then ignored), at most 10,000: a search
   * matching more answers the first 10,000 with `truncated: true`. `false` or absent: paged.
   */
  @ApiProperty({ required: false, default: false })
  @Omittable()
  @IsBoolean()
  all?: boolean;
}

/** The fields every `/view` answer shares; each search adds its typed `records`. */
export class PageDto {
  /** Always `ok`. */
  status: 'ok';
  message: string;
  /** The page answered, counting from 0. */
  @ApiInteger(0)
  pageNumber: number;
  @ApiInteger(1)
  pageSize: number;
  /** Records matching the filter (the planner's estimate when totalRecordsEstimated is true). */
  @ApiInteger(0)
  totalRecords: number;
  @ApiInteger(0)
  totalPages: number;
  /** Present (true) when more than 1,000 records match: totalRecords is then the planner's estimate. */
  totalRecordsEstimated?: boolean;
  /** Present (true) when `all: true` answered the first 10,000 records of more that match. */
  truncated?: boolean;
}

export interface Page<T> {
  status: 'ok';
  message: string;
  pageNumber: number;
  pageSize: number;
  totalRecords: number;
  totalPages: number;
  /** Present (true) when totalRecords is the planner's estimate of a very large result. */
  totalRecordsEstimated?: boolean;
  /** Present (true) when an `all: true` answer stopped at MAX_UNPAGED_RECORDS. */
  truncated?: boolean;
  records: T[];
}

/**
 * Offset and limit of a page request. `all: true` asks for one record more than MAX_UNPAGED_RECORDS, so that
 * pageOf knows, without trusting an estimated count, whether the answer had to stop short.
 */
export function pageWindow(request: PageRequestDto): { offset: number; limit: number } {
  if (request.all) return { offset: 0, limit: MAX_UNPAGED_RECORDS + 1 };
  const limit = request.pageSize ?? 20;
  return { offset: (request.pageNumber ?? 0) * limit, limit };
}

/** The answer to a page request, `records` as fetched with pageWindow's limit. */
export function pageOf<T>(request: PageRequestDto, totalRecords: number, records: T[], exact = true): Page<T> {
  if (request.all) return everythingOf(totalRecords, records, exact);
  const pageSize = request.pageSize ?? 20;
  return {
    status: 'ok',
    message: 'OK',
    pageNumber: request.pageNumber ?? 0,
    pageSize,
    totalRecords,
    totalPages: Math.ceil(totalRecords / pageSize),
    ...(exact ? {} : { totalRecordsEstimated: true }),
    records,
  };
}

/** One page of every record: when none were left out their number is the exact total, whatever the count said. */
function everythingOf<T>(totalRecords: number, records: T[], exact: boolean): Page<T> {
  const truncated = records.length > MAX_UNPAGED_RECORDS;
  const total = truncated ? Math.max(totalRecords, MAX_UNPAGED_RECORDS + 1) : records.length;
  return {
    status: 'ok',
    message: 'OK',
    pageNumber: 0,
    pageSize: MAX_UNPAGED_RECORDS,
    totalRecords: total,
    totalPages: Math.ceil(total / MAX_UNPAGED_RECORDS),
    ...(truncated && !exact ? { totalRecordsEstimated: true } : {}),
    ...(truncated ? { truncated: true } : {}),
    records: truncated ? records.slice(0, MAX_UNPAGED_RECORDS) : records,
  };
}
