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

export class CreateWebhookDto {
  /** Where deliveries are POSTed: `https` (plain `http` only when WEBHOOK_ALLOW_HTTP=true), at most 2048 characters. */
  @ApiProperty({ example: 'https://merchant.example.com/finapi/webhooks', maxLength: 2048 })
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
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
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  organizationId: string;
  url: string;
  @ApiProperty({ enum: EVENT_TYPE_NAMES, isArray: true })
  events: string[];
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  enabled: boolean;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

/** A webhook with its signing secret: answered only at registration and at a rotation. */
export class WebhookWithSecretDto extends WebhookDto {
  /** `whsec_` + base64 of 32 random bytes; sign with the bytes after `whsec_` (Standard Webhooks). Shown once. */
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
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
  @ApiProperty({ format: 'uuid' })
  id: string;
}

export class WebhookViewDto extends PageRequestDto {}

export class WebhookPageDto extends PageDto {
  @ApiProperty({ type: () => WebhookDto, isArray: true })
  records: WebhookDto[];
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export class DeliveryViewDto extends PageRequestDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: string;
}

export class DeliveryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  webhookId: string;
  /** The event's id: the `webhook-id` header of every attempt. */
  @ApiProperty({ format: 'uuid' })
  eventId: string;
  @ApiProperty({ enum: EVENT_TYPE_NAMES })
  eventType: string;
  @ApiProperty({ enum: DELIVERY_STATUSES })
  status: string;
  @ApiProperty({ type: 'integer', minimum: 0 })
  attempts: number;
  @ApiProperty({ format: 'date-time', type: String, nullable: true, description: 'When a pending delivery is tried next' })
  nextAttemptAt: string | null;
  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  lastAttemptAt: string | null;
  /** The receiver's HTTP status at the last attempt; null when none answered. */
  @ApiProperty({ type: 'integer', nullable: true })
  lastStatusCode: number | null;
  @ApiProperty({ type: String, nullable: true })
  lastError: string | null;
  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  deliveredAt: string | null;
  @ApiProperty({ format: 'date-time' })
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
