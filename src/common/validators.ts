import { applyDecorators, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
  ValidationArguments,
  ValidationOptions,
} from 'class-validator';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_BYTES } from '../config/config';
import { ApiError } from './api-error';

/** A path parameter that must be a UUID: malformed is a 400, never a database error. */
export function UuidParam(name: string): ParameterDecorator {
  return Param(name, new ParseUUIDPipe({ exceptionFactory: () => ApiError.invalid(name, 'must be a UUID') }));
}

/** A coin serial in a path: a numeric string; malformed is a 400. */
export function SerialParam(name = 'serial'): ParameterDecorator {
  return Param(name, {
    transform(value: unknown) {
      if (typeof value !== 'string' || !/^[1-9][0-9]{0,17}$/.test(value)) throw ApiError.invalid(name, 'must be a coin serial (digits)');
      return value;
    },
  });
}

/** A password of 8 to 72 bytes (bcrypt's limit); longer is rejected rather than truncated. */
export function IsPassword(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isPassword',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `must be a string of ${PASSWORD_MIN_BYTES} to ${PASSWORD_MAX_BYTES} bytes`,
        ...options,
      },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string') return false;
          const bytes = Buffer.byteLength(value, 'utf8');
          return bytes >= PASSWORD_MIN_BYTES && bytes <= PASSWORD_MAX_BYTES;
        },
      },
    });
}

// Date, time, an offset (Z or ±hh:mm); fractional seconds optional.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && !Number.isNaN(Date.parse(value));
}

/** An ISO 8601 date-time with an offset, or a plain date (taken as midnight UTC). */
export function IsIsoDateTime(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isIsoDateTime',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must be an ISO 8601 date-time with an offset, e.g. 2026-01-31T12:00:00Z', ...options },
      validator: {
        validate(value: unknown) {
          return typeof value === 'string' && (ISO_DATE_TIME.test(value) || ISO_DATE.test(value)) && isRealDate(value);
        },
      },
    });
}

/** The end of a range must be after its start (the specification's section 7 and 8). */
export function IsAfter(startProperty: string, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isAfter',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [startProperty],
      options: { message: `must be later than ${startProperty}`, ...options },
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          const start = (args.object as Record<string, unknown>)[startProperty];
          if (typeof value !== 'string' || typeof start !== 'string') return true;
          const a = Date.parse(start);
          const b = Date.parse(value);
          return Number.isNaN(a) || Number.isNaN(b) || b > a;
        },
      },
    });
}

/** Optional free text with a documented maximum length. */
export function OptionalText(maxLength: number): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    ValidateIf((_, v) => v !== null),
    MaxLength(maxLength),
    Matches(/^[^\u0000]*$/s, { message: 'must not contain NUL characters' }),
  );
}

/** A sort field of a `/view` search: `asc` or `desc`. */
export function SortOrder(): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ enum: ['asc', 'desc'] }), IsOptional(), IsIn(['asc', 'desc']));
}

/** The fields every `/view` answer shares; each search adds its typed `records`. */
export class PageDto {
  status: 'ok';
  message: string;
  pageNumber: number;
  pageSize: number;
  totalRecords: number;
  totalPages: number;
  /** Present (true) when more than 1,000 records match: totalRecords is then the planner's estimate. */
  totalRecordsEstimated?: boolean;
}

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
  records: T[];
}

export function pageOf<T>(request: PageRequestDto, totalRecords: number, records: T[], exact = true): Page<T> {
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
