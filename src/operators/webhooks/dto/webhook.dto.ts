import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { Omittable } from '../../../platform/common/validators';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { EVENT_TYPE_NAMES } from '../../../platform/outbox/event-types';
import {
  ApiDateTime,
  ApiDateTimeOrNull,
  ApiEnum,
  ApiExample,
  ApiInteger,
  ApiOptionalEnum,
  ApiTextOrNull,
  ApiUuid,
  Name,
} from '../../../platform/common/dto-fields';

export class CreateWebhookDto {
  /** Where deliveries are POSTed: `https` (plain `http` only when WEBHOOK_ALLOW_HTTP=true), at most 2048 characters. */
  @Name(2048, 'https://merchant.example.com/finapi/webhooks')
  url: string;

  /** The event types to receive (`user.on_hold`: staff only). */
  @ApiProperty({ enum: EVENT_TYPE_NAMES, isArray: true })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPE_NAMES.length)
  @ArrayUnique()
  @IsIn(EVENT_TYPE_NAMES, { each: true })
  events: string[];

  /** What the endpoint is for, at most 500 characters. */
  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ example: 'https://merchant.example.com/finapi/webhooks', maxLength: 2048 })
  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ enum: EVENT_TYPE_NAMES, isArray: true })
  @Omittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPE_NAMES.length)
  @ArrayUnique()
  @IsIn(EVENT_TYPE_NAMES, { each: true })
  events?: string[];

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  /** A disabled webhook receives no new events. */
  @ApiPropertyOptional()
  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  organizationId: string;
  url: string;
  @ApiProperty({ enum: EVENT_TYPE_NAMES, isArray: true })
  events: string[];
  @ApiTextOrNull()
  description: string | null;
  enabled: boolean;
  @ApiDateTime()
  createdAt: string;
  @ApiDateTime()
  updatedAt: string;
}

/** A webhook with its signing secret: answered only at registration and at a rotation. */
export class WebhookWithSecretDto extends WebhookDto {
  /** `whsec_` + base64 of 32 random bytes; sign with the bytes after `whsec_` (Standard Webhooks). Shown once. */
  @ApiExample('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
  secret: string;
}

export class WebhookSecretResponseDto {
  status: 'ok';
  message: string;
  webhook: WebhookWithSecretDto;
}

export class WebhookResponseDto {
  status: 'ok';
  message: string;
  webhook: WebhookDto;
}

export class WebhookDeletedDto {
  status: 'ok';
  message: string;
  @ApiUuid()
  id: string;
}

export class WebhookViewDto extends PageRequestDto {}

export class WebhookPageDto extends PageDto {
  @ApiProperty({ type: () => WebhookDto, isArray: true })
  records: WebhookDto[];
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export class DeliveryViewDto extends PageRequestDto {
  @ApiOptionalEnum(DELIVERY_STATUSES)
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: string;
}

export class DeliveryDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  webhookId: string;
  /** The event's id: the `webhook-id` header of every attempt. */
  @ApiUuid()
  eventId: string;
  @ApiEnum(EVENT_TYPE_NAMES)
  eventType: string;
  @ApiEnum(DELIVERY_STATUSES)
  status: string;
  @ApiInteger(0)
  attempts: number;
  @ApiProperty({ format: 'date-time', type: String, nullable: true, description: 'When a pending delivery is tried next' })
  nextAttemptAt: string | null;
  @ApiDateTimeOrNull()
  lastAttemptAt: string | null;
  /** The receiver's HTTP status at the last attempt; null when none answered. */
  @ApiProperty({ type: 'integer', nullable: true })
  lastStatusCode: number | null;
  @ApiTextOrNull()
  lastError: string | null;
  @ApiDateTimeOrNull()
  deliveredAt: string | null;
  @ApiDateTime()
  createdAt: string;
}

export class DeliveryPageDto extends PageDto {
  @ApiProperty({ type: () => DeliveryDto, isArray: true })
  records: DeliveryDto[];
}

export class DeliveryResponseDto {
  status: 'ok';
  message: string;
  delivery: DeliveryDto;
}
