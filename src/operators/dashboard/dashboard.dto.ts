import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { JsonDecimal } from '../../platform/common/json-decimal';
import { ApiAmount } from '../../platform/common/money-validators';
import { ApiExample, ApiInteger } from '../../platform/common/dto-fields';

export class DashboardQueryDto {
  /** How many UTC days, today included, 1 to 90. Default 14. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 90, default: 14 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(90)
  days?: number;
}

export class DashboardVolumeDto {
  @ApiProperty({ format: 'date', example: '2026-11-24' })
  date: string;
  @ApiExample('USD')
  currency: string;
  @ApiInteger(1)
  operations: number;
  @ApiAmount(1250.5, 'What the processed operations moved')
  amount: JsonDecimal;
}

export class DashboardHoldsDto {
  @ApiExample('USD')
  currency: string;
  @ApiInteger(1)
  holds: number;
  @ApiAmount(50, 'Held in total')
  amount: JsonDecimal;
}

export class DashboardDayCountDto {
  @ApiProperty({ format: 'date', example: '2026-11-24' })
  date: string;
  @ApiInteger(0)
  count: number;
}

export class DashboardDto {
  status: 'ok';
  message: string;
  /** The first UTC day shown. */
  @ApiProperty({ format: 'date', example: '2026-11-11' })
  from: string;
  /** The last UTC day shown (today). */
  @ApiProperty({ format: 'date', example: '2026-11-24' })
  to: string;
  /** Processed operations per day and currency (days without any are left out). */
  @ApiProperty({ type: () => DashboardVolumeDto, isArray: true })
  volumes: DashboardVolumeDto[];
  /** Holds open now, per currency. */
  @ApiProperty({ type: () => DashboardHoldsDto, isArray: true })
  openHolds: DashboardHoldsDto[];
  /** Failed password checks per day, every day of the range. */
  @ApiProperty({ type: () => DashboardDayCountDto, isArray: true })
  failedLogins: DashboardDayCountDto[];
  /** Webhook deliveries given up for good per day, every day of the range. */
  @ApiProperty({ type: () => DashboardDayCountDto, isArray: true })
  webhookFailures: DashboardDayCountDto[];
}
