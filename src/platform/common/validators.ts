import { applyDecorators, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  registerDecorator,
  ValidateIf,
  ValidationArguments,
  ValidationOptions,
} from 'class-validator';
import { passwordProblem } from '../config/password-policy';
import { isValidIban } from './iban';
import { ApiError } from './api-error';

/** A path parameter that must be a UUID: malformed is a 400, never a database error. */
export function UuidParam(name: string): ParameterDecorator {
  return Param(name, new ParseUUIDPipe({ exceptionFactory: () => ApiError.invalid(name, 'must be a UUID') }));
}

/** A numeric id (a positive bigint) as text: digits without leading zeros, at most 18; the inside of the patterns below. */
export const NUMERIC_ID_DIGITS = '[1-9][0-9]{0,17}';
/** A numeric id: a coin serial, a merchant product's or price's id. */
export const NUMERIC_ID_PATTERN = new RegExp(`^${NUMERIC_ID_DIGITS}$`);
/** A coin serial: a numeric id. */
export const SERIAL_PATTERN = NUMERIC_ID_PATTERN;
export const SERIAL_EXAMPLE = '1000000001';

/** A coin serial in a path: a numeric string; malformed is a 400. */
export function SerialParam(name = 'serial'): ParameterDecorator {
  return Param(name, {
    transform(value: unknown) {
      if (typeof value !== 'string' || !SERIAL_PATTERN.test(value)) throw ApiError.invalid(name, 'must be a coin serial (digits)');
      return value;
    },
  });
}

/** A numeric id in a path (merchant products and their prices): anything but a positive number is a 400. */
export function NumericIdParam(name: string): ParameterDecorator {
  return Param(name, {
    transform(value: unknown) {
      if (typeof value !== 'string' || !NUMERIC_ID_PATTERN.test(value)) throw ApiError.invalid(name, 'must be a number');
      return value;
    },
  });
}

/** A body field holding a coin serial (a string of digits). */
export function Serial(options: { required?: boolean; description?: string } = {}): PropertyDecorator {
  const required = options.required ?? true;
  const doc = {
    example: SERIAL_EXAMPLE,
    pattern: SERIAL_PATTERN.source,
    ...(options.description ? { description: options.description } : {}),
  };
  return applyDecorators(
    required ? ApiProperty(doc) : ApiPropertyOptional(doc),
    ...(required ? [] : [IsOptional()]),
    IsString(),
    Matches(SERIAL_PATTERN, { message: 'must be a coin serial (digits)' }),
  );
}

/**
 * A list filter of a `/view` that also takes a single value as the list of that one (`"pending"` for `["pending"]`),
 * as the family's clients send it; the list's own rules then check it. Absent and null are left as they are.
 */
export function AsList(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (value === undefined || value === null || Array.isArray(value) ? value : [value]));
}

/** An optional filter of up to 100 coin serials. */
export function SerialList(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], example: [SERIAL_EXAMPLE] }),
    AsList(),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(100),
    IsString({ each: true }),
    Matches(SERIAL_PATTERN, { each: true, message: 'each value must be a coin serial' }),
  );
}

/** An optional filter of some of `values` (statuses, kinds, types). */
export function EnumList(values: readonly string[]): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ enum: [...values], isArray: true }),
    AsList(),
    IsOptional(),
    IsArray(),
    IsIn(values, { each: true }),
  );
}

/** An optional filter of up to 100 UUIDs. */
export function UuidList(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], format: 'uuid' }),
    AsList(),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(100),
    IsUUID('all', { each: true }),
  );
}

/**
 * A password someone chooses: 8 to 72 bytes (bcrypt's limit; longer is refused rather than cut), not
 * one of the most common passwords, and not the login held by the sibling property `loginProperty`.
 */
export function IsPassword(options: ValidationOptions & { loginProperty?: string } = {}): PropertyDecorator {
  const { loginProperty, ...validationOptions } = options;
  const problem = (args: ValidationArguments) => {
    const login = loginProperty ? (args.object as Record<string, unknown>)[loginProperty] : undefined;
    return passwordProblem(args.value, typeof login === 'string' ? login : undefined);
  };
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isPassword',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: (args: ValidationArguments) => problem(args) ?? '', ...validationOptions },
      validator: { validate: (_: unknown, args: ValidationArguments) => problem(args) === undefined },
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

/** A field removed from the API: absent or null is accepted (and ignored), any other value is a 400. */
export function IsRemoved(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isRemoved',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'was removed in release 4.10.0' },
      validator: {
        validate(value: unknown) {
          return value === undefined || value === null;
        },
      },
    });
}

/**
 * A field that may be left out but, when sent, is checked like any other: `null` included (a 400),
 * where `@IsOptional()` would let a null through to code that only expects a value or nothing.
 * For a field whose null means something (clearing it), use `OptionalText` or a nullable rule.
 */
export function Omittable(): PropertyDecorator {
  return ValidateIf((_, v) => v !== undefined);
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

/** An IBAN whose ISO 13616 check digits are right (spaces allowed; stored without them, upper-cased). */
export function IsIban(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isIban',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must be an IBAN with valid check digits (ISO 13616)', ...options },
      validator: {
        validate(value: unknown) {
          return typeof value === 'string' && value.length <= 50 && isValidIban(value);
        },
      },
    });
}
