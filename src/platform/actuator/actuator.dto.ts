import { ApiProperty } from '@nestjs/swagger';
import { ApiEnum } from '../common/dto-fields';

export class ApiRouteDto {
  HTTP_method: string;
  path: string;
  /** Permissions the caller's role must hold; empty for public routes and for any logged-in member. */
  permissions: string[];
  /** Roles holding every required permission; empty for a public route. */
  roles: string[];
  tags: string[];
  request_parameters: string[];
  /** `true` when no token is needed. */
  public: boolean;
}

export class ApiGroupDto {
  name: string;
  tag: string;
  description: string;
  number_of_APIs: number;
  records: ApiRouteDto[];
}

export class ApiListDto {
  totalNumberOfAPIs: number;
  records: ApiGroupDto[];
}

/** What was built and when it started; nothing about the runtime (the public must not learn the Node version). */
export class BuildDto {
  /** The service's own semantic version (package.json; see CHANGELOG.md), apart from the API release it implements. */
  packageVersion: string;
  startedAt: string;
  commit: string | null;
}

export class InfoDto {
  name: string;
  /** The release of the specification's API the service implements. */
  version: string;
  build: BuildDto;
}

export class LedgerCheckDto {
  status: 'ok';
  /** True when every balance equals the sum of its entries and every operation sums to zero. */
  balanced: boolean;
  checkedCoins: number;
  checkedOperations: number;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  mismatches: Record<string, string>[];
}

export class HealthIndicatorDto {
  @ApiEnum(['up', 'down'])
  status: string;
  /** Milliseconds the ping took. */
  @ApiProperty({ type: 'integer', required: false })
  responseTime?: number;
  /** Why it is down. */
  @ApiProperty({ required: false })
  message?: string;
}

/** Terminus' health answer: `database` is the only indicator. */
export class HealthDto {
  @ApiEnum(['ok'])
  status: 'ok';
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthIndicatorDto' } })
  info: Record<string, HealthIndicatorDto>;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthIndicatorDto' } })
  error: Record<string, HealthIndicatorDto>;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthIndicatorDto' } })
  details: Record<string, HealthIndicatorDto>;
}

/** The process runs (no dependency is checked). */
export class LivenessDto {
  @ApiEnum(['ok'])
  status: 'ok';
}
