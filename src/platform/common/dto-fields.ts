/**
 * Compound property decorators for the DTOs: one per recurring kind of field, so a field states its kind once. The
 * Swagger CLI plugin reads class-validator's constraints (`@MaxLength`, `@Matches`, `@IsIn`…) only when they are
 * written on the property itself; wrapped here, each decorator documents them itself, as the plugin did.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, DECORATORS } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { IsAmount } from './money-validators';
import { IsAfter, IsIsoDateTime, Omittable, OptionalText } from './validators';

type Decorators = Array<PropertyDecorator | ((target: object, key: string | symbol) => void)>;

/**
 * The decorators applied as if written one above the other in this order: the last one first, as TypeScript applies
 * a stack. class-validator lists a field's failed constraints in that order, and so does the 400's message.
 */
export function stacked(...decorators: Decorators): PropertyDecorator {
  return applyDecorators(...[...decorators].reverse());
}

/** A decorator built from the property's name (for messages that name the field, as class-validator's own do). */
function named(build: (property: string) => Decorators): PropertyDecorator {
  return (target, key) => stacked(...build(String(key)))(target, key);
}

/**
 * Documentation of a field without taking a place among the explicitly documented ones: what the plugin's
 * class-validator shim added for a constraint written on the property. The field keeps its place in the schema's
 * `required` list (the plugin's fields come after the decorated ones).
 */
export function Documented(metadata: Record<string, unknown>): PropertyDecorator {
  return (target, key) => {
    const own = (Reflect.getOwnMetadata(DECORATORS.API_MODEL_PROPERTIES, target, key) ?? {}) as Record<string, unknown>;
    Reflect.defineMetadata(DECORATORS.API_MODEL_PROPERTIES, { ...metadata, ...own }, target, key);
  };
}

// ---- Answers: what a field is, documented in one word.

/** A UUID. */
export const ApiUuid = () => ApiProperty({ format: 'uuid' });
/** A UUID that may be left out. */
export const ApiOptionalUuid = () => ApiPropertyOptional({ format: 'uuid' });
/** A UUID or null. */
export const ApiUuidOrNull = () => ApiProperty({ type: String, format: 'uuid', nullable: true });

/** A date-time (ISO 8601). */
export const ApiDateTime = (example?: string) => ApiProperty({ format: 'date-time', ...(example === undefined ? {} : { example }) });
/** A date-time that may be left out. */
export const ApiOptionalDateTime = () => ApiPropertyOptional({ format: 'date-time' });
/** A date-time or null. */
export const ApiDateTimeOrNull = () => ApiProperty({ type: String, format: 'date-time', nullable: true });

/** A text or null, with an example when given. */
export const ApiTextOrNull = (example?: string) =>
  ApiProperty({ type: String, nullable: true, ...(example === undefined ? {} : { example }) });

/** A value shown by an example (a currency code, a name). */
export const ApiExample = (example: string | number | boolean) => ApiProperty({ example });

/** One of a closed set of values. */
export const ApiEnum = (values: readonly unknown[] | Record<string, unknown>, example?: string) =>
  ApiProperty({ enum: values as unknown[], ...(example === undefined ? {} : { example }) });
/** One of a closed set of values, or left out. */
export const ApiOptionalEnum = (values: readonly unknown[] | Record<string, unknown>, example?: string) =>
  ApiPropertyOptional({ enum: values as unknown[], ...(example === undefined ? {} : { example }) });

/** A whole number, with its minimum when it has one. */
export const ApiInteger = (minimum?: number) => ApiProperty({ type: 'integer', ...(minimum === undefined ? {} : { minimum }) });

// ---- Requests: the field's rules and its documentation together.

/** Letters, digits, punctuation and spaces: no control character (a line break included). */
export const SINGLE_LINE_TEXT = /^[^\u0000-\u001f\u007f]*$/;

/**
 * A one-line text of 1 to `maxLength` characters that may be left out (a null is refused): the family's form fields
 * (names, city, street…).
 */
export function OmittableLine(maxLength: number): PropertyDecorator {
  return named((property) => [
    Omittable(),
    IsString(),
    MinLength(1),
    MaxLength(maxLength),
    Matches(SINGLE_LINE_TEXT, { message: `${property} must not contain control characters` }),
    ApiPropertyOptional({ minLength: 1, maxLength }),
  ]);
}

/** Required text of 1 to `maxLength` characters (a reason, a name). */
export function RequiredText(maxLength: number): PropertyDecorator {
  return stacked(IsString(), MinLength(1), MaxLength(maxLength), Documented({ minLength: 1, maxLength }));
}

/** An e-mail address of at most `maxLength` characters that may be left out (a null is refused). */
export function OmittableEmail(maxLength = 200): PropertyDecorator {
  return stacked(Omittable(), IsEmail(), MaxLength(maxLength), ApiPropertyOptional({ format: 'email', maxLength }));
}

/** An amount in a request: a decimal string such as "25.00" or a JSON number. */
export function Amount(example: string): PropertyDecorator {
  return stacked(ApiProperty({ example, oneOf: [{ type: 'string' }, { type: 'number' }] }), IsAmount());
}

/** One of `values`. */
export function OneOf(values: readonly string[]): PropertyDecorator {
  return stacked(IsIn(values), ApiProperty({ enum: [...values] }));
}

/** A nested object of class `type`, validated as a whole; `optional` lets it be left out. */
export function Nested(type: Parameters<typeof Type>[0], optional?: 'optional'): PropertyDecorator {
  return stacked(...(optional ? [IsOptional()] : []), IsObject(), ValidateNested(), Type(type));
}

/** A required one-line name of 1 to `maxLength` characters, with an example when given. */
export function Name(maxLength: number, example?: string): PropertyDecorator {
  return stacked(
    ApiProperty({ maxLength, minLength: 1, ...(example === undefined ? {} : { example }) }),
    IsString(),
    MinLength(1),
    MaxLength(maxLength),
  );
}

/** An optional description of at most `maxLength` characters (null clears it). */
export function Description(maxLength: number): PropertyDecorator {
  return stacked(ApiPropertyOptional({ maxLength }), OptionalText(maxLength), IsString());
}

/** An optional true or false, `fallback` when left out. */
export function OptionalFlag(fallback: boolean): PropertyDecorator {
  return stacked(ApiPropertyOptional({ default: fallback }), IsOptional(), IsBoolean());
}

/** An optional date-time filter or setting (ISO 8601 with an offset, or a plain date). */
export function OptionalDateTime(): PropertyDecorator {
  return stacked(ApiOptionalDateTime(), IsOptional(), IsIsoDateTime());
}

/** The optional end of a date-time range: must be later than its start, the sibling property `startProperty`. */
export function OptionalDateTimeAfter(startProperty: string): PropertyDecorator {
  return stacked(ApiOptionalDateTime(), IsOptional(), IsIsoDateTime(), IsAfter(startProperty));
}
