import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { AsList } from '../../../platform/common/validators';
import { ApiDateTimeOrNull, ApiEnum, ApiTextOrNull, ApiUuid, Nested } from '../../../platform/common/dto-fields';

export const MESSAGE_STATUSES = ['pending', 'sent', 'failed'] as const;
export const MESSAGE_CHANNELS = ['email', 'sms', 'log'] as const;

export class MessageFilterDto {
  /** `pending` (queued or waiting for a retry), `sent`, `failed` (undeliverable: given up). */
  @ApiPropertyOptional({ enum: MESSAGE_STATUSES, isArray: true })
  @AsList()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsIn(MESSAGE_STATUSES, { each: true })
  statuses?: string[];

  @ApiPropertyOptional({ enum: MESSAGE_CHANNELS, isArray: true })
  @AsList()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsIn(MESSAGE_CHANNELS, { each: true })
  channels?: string[];

  /** The messages to one login (as stored: lower case). */
  @IsOptional()
  @IsString()
  @MaxLength(254)
  to?: string;
}

export class MessageViewDto extends PageRequestDto {
  @Nested(() => MessageFilterDto, 'optional')
  filter?: MessageFilterDto;
}

/** A message of the outbox as staff see it: where it went, how it fared; never its text nor a code. */
export class MessageRecordDto {
  @ApiUuid()
  id: string;
  /** How it goes: `email`, `sms`, `log` (the log sender's file); null when no configured sender reaches the recipient. */
  @ApiProperty({ enum: MESSAGE_CHANNELS, nullable: true, type: String })
  channel: string | null;
  to: string;
  @ApiEnum(['code', 'notice'])
  kind: string;
  /** The code's purpose or the notice's template. */
  template: string;
  locale: string;
  @ApiEnum(MESSAGE_STATUSES)
  status: string;
  attempts: number;
  /** Why the last attempt failed (the server's answer), if it did. */
  @ApiTextOrNull()
  lastError: string | null;
  /** When the next attempt is due (pending only). */
  @ApiDateTimeOrNull()
  nextAttemptAt: string | null;
  @ApiDateTimeOrNull()
  lastAttemptAt: string | null;
  @ApiDateTimeOrNull()
  sentAt: string | null;
  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;
}

export class MessagePageDto extends PageDto {
  records: MessageRecordDto[];
}
