import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, FieldError } from './api-error';
import { cacheRuleLookups } from './rule-lookups';

/**
 * A search without sort fields (its request declares no `sort`) names each field asked for, as the searches with
 * sort fields do (`sort.bogus is not a known field`); true when there was one to name.
 */
function unknownSortFields(sort: unknown, out: FieldError[]): boolean {
  if (typeof sort !== 'object' || sort === null || Array.isArray(sort) || Object.keys(sort).length === 0) return false;
  for (const field of Object.keys(sort)) out.push({ parameter: `sort.${field}`, message: 'is not a known field' });
  return true;
}

function collect(errors: ValidationError[], prefix: string, out: FieldError[]): void {
  for (const error of errors) {
    const parameter = prefix ? `${prefix}.${error.property}` : error.property;
    for (const [kind, text] of Object.entries(error.constraints ?? {})) {
      if (kind === 'whitelistValidation' && parameter === 'sort' && unknownSortFields(error.value, out)) continue;
      let message = text;
      if (kind === 'whitelistValidation') message = 'is not a known field';
      else if (message.startsWith(`${error.property} `)) message = message.slice(error.property.length + 1);
      else if (message.startsWith('nested property ') || message.startsWith('each value in '))
        message = message.replace(`${error.property} `, '');
      out.push({ parameter, message });
    }
    if (error.children?.length) collect(error.children, parameter, out);
  }
}

export function toApiError(errors: ValidationError[]): ApiError {
  const fieldErrors: FieldError[] = [];
  collect(errors, '', fieldErrors);
  if (fieldErrors.length === 0) fieldErrors.push({ parameter: 'body', message: 'must be a JSON object' });
  const message = fieldErrors.map((e) => (e.parameter ? `${e.parameter} ${e.message}` : e.message)).join('; ');
  return new ApiError('exception.validation', message, fieldErrors);
}

/** The one validation pipe: unknown fields are rejected, values are converted to DTO classes. */
export function createValidationPipe(): ValidationPipe {
  cacheRuleLookups();
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    // The value is kept for unknownSortFields only; no answer or log shows it.
    validationError: { target: false, value: true },
    exceptionFactory: toApiError,
  });
}
