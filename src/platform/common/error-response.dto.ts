import { ApiProperty } from '@nestjs/swagger';
import { ERRORS } from './errors';
import { ApiEnum } from './dto-fields';

export class FieldErrorDto {
  /** Path of the offending field, e.g. `totalPrice.amount`. */
  parameter: string;
  /** What is wrong with it. */
  message: string;
}

/** The body of every 4xx and 5xx answer. */
export class ErrorResponseDto {
  /** Always `error`. */
  @ApiEnum(['error'])
  status: 'error';
  /** Stable dotted key that clients can translate (`GET /api/v1/i18n/export/en.json` lists them). */
  @ApiProperty({ enum: Object.keys(ERRORS), example: 'exception.validation' })
  code: string;
  /** Human-readable explanation. */
  message: string;
  /** Field-level problems; empty when the error is not about a field. */
  errors: FieldErrorDto[];
  /** Correlates the answer with the service's logs (also sent as the X-Request-Id header). */
  requestId: string;
}
