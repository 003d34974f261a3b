import { applyDecorators, Param } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Expose, Transform } from 'class-transformer';
import { isUUID, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ApiError } from './api-error';
import { PageRequestDto, SortOrder } from './paging.dto';
import { EnumList, NUMERIC_ID_PATTERN, SERIAL_EXAMPLE, SERIAL_PATTERN, SerialList, UuidList } from './validators';
import {
  ApiDateTime,
  ApiDateTimeOrNull,
  ApiEnum,
  ApiExample,
  ApiTextOrNull,
  ApiUuid,
  ApiUuidOrNull,
  Nested,
  OptionalDateTime,
  OptionalDateTimeAfter,
} from './dto-fields';

/** The filter every search of requests (bank top-ups, withdrawals, cash desk operations) shares. */
export class RequestFilterDto {
  @UuidList()
  ids?: string[];

  /** Requests for these coins. */
  @SerialList()
  coinSerials?: string[];

  /** Requests of these organizations (staff; others see their own organization's only). */
  @UuidList()
  orgIds?: string[];

  /** Created at or after this instant (ISO 8601). */
  @OptionalDateTime()
  createdFrom?: string;

  /** Created before this instant; must be later than createdFrom. */
  @OptionalDateTimeAfter('createdFrom')
  createdTo?: string;

  /** The family's name for createdFrom. */
  @OptionalDateTime()
  startCreatedDate?: string;

  /** The family's name for createdTo; must be later than startCreatedDate. */
  @OptionalDateTimeAfter('startCreatedDate')
  finishCreatedDate?: string;

  /** Free text, case-insensitive, found in the request's names, bank details, description or customInformation. */
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  text?: string;
}

export class RequestSortDto {
  @SortOrder()
  createdAt?: 'asc' | 'desc';
}

/** A page of a search of requests: each kind of request adds its `filter`. Newest first unless sorted otherwise. */
export class RequestViewDto extends PageRequestDto {
  @Nested(() => RequestSortDto, 'optional')
  sort?: RequestSortDto;
}

/**
 * What every request record shows (bank top-up requests, bank withdrawals, cash desk operations): the coin, the text
 * its creator gave, who decided and when. Each kind adds its status, amounts, parties and operation.
 */
export class RequestRecordDto {
  @ApiUuid()
  id: string;
  @ApiExample('1000000001')
  coinSerial: string;
  @ApiExample('EUR')
  currency: string;
  @ApiTextOrNull()
  description: string | null;
  @ApiTextOrNull()
  customInformation: string | null;
  @ApiTextOrNull()
  declineReason: string | null;
  @ApiUuidOrNull()
  createdBy: string | null;
  @ApiUuidOrNull()
  decidedBy: string | null;
  @ApiDateTimeOrNull()
  decidedAt: string | null;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

/** Statuses the family's request screens filter by that no request of the service has: accepted, they match nothing. */
export const FAMILY_ONLY_REQUEST_STATUSES = ['error', 'rejected'] as const;

/**
 * The family's `requestStatuses` filter: request statuses, as a list or a single status (the family's web client sends
 * one), searched together with `statuses`.
 */
export function RequestStatuses(values: readonly string[]): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value)),
    EnumList(values),
  );
}

/**
 * A request in a path: its UUID or its `requestIdentifier` (digits), which the family's web client decides by; the
 * service looks the identifier up. Anything else is a 400.
 */
export function RequestIdParam(name: string): ParameterDecorator {
  return Param(name, {
    transform(value: unknown) {
      if (typeof value === 'string' && (isUUID(value) || NUMERIC_ID_PATTERN.test(value))) return value;
      throw ApiError.invalid(name, 'must be a UUID or a requestIdentifier');
    },
  });
}

/** True when a request reference from RequestIdParam is a `requestIdentifier` rather than a UUID. */
export const isRequestIdentifier = (ref: string): boolean => NUMERIC_ID_PATTERN.test(ref);

/**
 * A coin serial that the family's web client may send as `coin`: the property reads `coinSerial`, or `coin` when it is
 * absent (the DTO declares `coin` with CoinAlias).
 */
export function SerialOrCoin(): PropertyDecorator {
  return applyDecorators(
    Expose(),
    Transform(({ value, obj }: { value: unknown; obj: Record<string, unknown> }) => value ?? obj.coin),
  );
}

/** `coin`: the family's name for `coinSerial`; `coinSerial` wins when both are sent. */
export function CoinAlias(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ example: SERIAL_EXAMPLE, pattern: SERIAL_PATTERN.source, description: 'The family’s name for coinSerial' }),
    IsOptional(),
    IsString(),
    Matches(SERIAL_PATTERN, { message: 'must be a coin serial (digits)' }),
  );
}

export class ClientCoinIssuerDto {
  @ApiUuid()
  id: string;
  @ApiExample(1)
  sn: number;
  @ApiExample('EUR')
  currency: string;
  @ApiTextOrNull('€')
  symbol: string | null;
}

/** The request's coin as the family's screens show it. */
export class ClientCoinDto {
  @ApiProperty({ example: SERIAL_EXAMPLE })
  serial: string;
  name: string;
  @ApiUuid()
  organizationId: string;
  organizationName: string;
  /** True for a system coin (never the coin of a request: those are client coins). */
  technical: boolean;
  @ApiEnum(['client', 'system'])
  type: string;
  issuer: ClientCoinIssuerDto;
}

/** The bank of a request as the family's screens show it; a field the service does not know is null. */
export class BankInfoDto {
  @ApiTextOrNull()
  name: string | null;
  @ApiTextOrNull()
  bic: string | null;
  @ApiTextOrNull()
  swift: string | null;
  @ApiTextOrNull()
  country: string | null;
  @ApiTextOrNull()
  city: string | null;
  @ApiTextOrNull()
  address: string | null;
  @ApiTextOrNull()
  zipCode: string | null;
}

/** A decision that refuses a request. */
export class DeclineDto {
  /** Why, shown to the requester; 1 to 500 characters. */
  @ApiProperty({ maxLength: 500, example: 'The account holder does not match' })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}

/** A decision that refuses a bank request: the reason may be left out (the family's web client sends no body). */
export class OptionalDeclineDto {
  /** Why, shown to the requester; 1 to 500 characters. */
  @ApiPropertyOptional({ maxLength: 500, example: 'The account holder does not match' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason?: string;
}
