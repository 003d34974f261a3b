import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { CALENDAR_DATE } from '../scheduler.clock';
import { ApiExample } from '../../common/dto-fields';

export class RunSchedulerDto {
  /**
   * Run what is due on or before this date instead of today (UTC). Only with SCHEDULER_TEST_CLOCK=true (tests and
   * demonstrations; refused when NODE_ENV=production), so no production caller can run a payment before its date.
   */
  @ApiPropertyOptional({ example: '2030-01-31', format: 'date' })
  @IsOptional()
  @Matches(CALENDAR_DATE, { message: 'must be a date such as 2030-01-31' })
  today?: string;
}

export class RunCountsDto {
  @ApiProperty({ example: 2, description: 'Due dates whose work was done' })
  processed: number;

  @ApiProperty({ example: 0, description: 'Due dates whose work was refused (e.g. insufficient funds), recorded as failed' })
  failed: number;
}

export class SchedulerRunDto {
  @ApiExample('ok')
  status: string;

  @ApiExample('OK')
  message: string;

  @ApiProperty({ example: '2030-01-31', format: 'date', description: 'The date the pass ran up to' })
  today: string;

  @ApiProperty({ type: RunCountsDto })
  runs: RunCountsDto;
}
