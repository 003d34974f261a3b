import { ApiProperty } from '@nestjs/swagger';
import { registerDecorator, ValidationOptions } from 'class-validator';

/** A currency fraction: a power of ten from 1 to 10^18, as a JSON number or a string. */
export function IsFraction(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isFraction',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must be a power of ten from 1 to 10^18 (1, 10, 100, …)', ...options },
      validator: {
        validate(value: unknown) {
          const text = typeof value === 'number' ? (Number.isInteger(value) ? BigInt(value).toString() : '') : value;
          return typeof text === 'string' && /^10{0,18}$/.test(text);
        },
      },
    });
}

/** A decimal amount: a string like "10.50" or a JSON number; the currency's decimals are checked by the service. */
export function IsAmount(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isAmount',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must be a decimal number such as "10.50"', ...options },
      validator: {
        validate(value: unknown) {
          return (
            (typeof value === 'string' && /^-?\d{1,20}(\.\d{1,18})?$/.test(value)) || (typeof value === 'number' && Number.isFinite(value))
          );
        },
      },
    });
}

/**
 * Documents an amount of an answer: a JSON number whose text is the exact decimal, with the
 * currency's decimals. Clients needing more than 15 significant digits parse it losslessly.
 */
export function ApiAmount(example: number, description?: string): PropertyDecorator {
  return ApiProperty({
    type: 'number',
    example,
    description: `${description ? `${description}. ` : ''}An exact decimal written as a JSON number with the currency's decimals; parse losslessly beyond 15 significant digits.`,
  });
}
