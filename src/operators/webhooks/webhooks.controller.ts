import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import {
  CreateWebhookDto,
  DeliveryPageDto,
  DeliveryResponseDto,
  DeliveryViewDto,
  UpdateWebhookDto,
  WebhookDeletedDto,
  WebhookPageDto,
  WebhookResponseDto,
  WebhookSecretResponseDto,
  WebhookViewDto,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** Registers an endpoint of the caller's organization; the signing secret is in this answer only. */
  @Post()
  @RequirePermissions('WEBHOOK_OWNER')
  @ApiOperation({ summary: 'Register a webhook endpoint', operationId: 'createWebhook' })
  @ApiCreatedResponse({ type: WebhookSecretResponseDto })
  @ApiUnprocessableEntityResponse({
    description: 'exception.webhook.url_refused: not https, or not a public address',
    type: ErrorResponseDto,
  })
  @ApiConflictResponse({
    description: 'exception.webhook.limit_reached: the organization already has WEBHOOKS_PER_ORGANIZATION webhooks',
    type: ErrorResponseDto,
  })
  async create(@Body() dto: CreateWebhookDto, @CurrentPrincipal() principal: Principal): Promise<WebhookSecretResponseDto> {
    return {
      status: 'ok',
      message: 'Webhook registered; keep the secret, it is not shown again',
      webhook: await this.webhooks.create(principal, dto),
    };
  }

  /** The webhook endpoints of the caller's organization, never their signing secrets. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('WEBHOOK_OWNER')
  @ApiOperation({ summary: "List the organization's webhooks", operationId: 'viewWebhooks' })
  @ApiOkResponse({ type: WebhookPageDto })
  view(@Body() dto: WebhookViewDto, @CurrentPrincipal() principal: Principal): Promise<WebhookPageDto> {
    return this.webhooks.view(principal, dto);
  }

  /**
   * One of the organization's webhook endpoints; the signing secret is shown only when registered or rotated. Another
   * organization's is a 404.
   */
  @Get(':id')
  @RequirePermissions('WEBHOOK_OWNER')
  @ApiOperation({ summary: 'Get a webhook (without its secret)', operationId: 'getWebhook' })
  @ApiOkResponse({ type: WebhookResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookResponseDto> {
    return { status: 'ok', message: 'OK', webhook: await this.webhooks.get(principal, id) };
  }

  /** Changes the fields sent; `enabled: false` stops new events reaching it. */
  @Patch(':id')
  @RequirePermissions('WEBHOOK_OWNER')
  @ApiOperation({ summary: 'Change a webhook', operationId: 'updateWebhook' })
  @ApiOkResponse({ type: WebhookResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({
    description: 'exception.webhook.url_refused: not https, or not a public address',
    type: ErrorResponseDto,
  })
  async update(
    @UuidParam('id') id: string,
    @Body() dto: UpdateWebhookDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookResponseDto> {
    return { status: 'ok', message: 'Webhook changed', webhook: await this.webhooks.update(principal, id, dto) };
  }

  /**
   * Removes one of the organization's webhook endpoints with its deliveries: no event reaches it any more. Another
   * organization's is a 404.
   */
  @Delete(':id')
  @RequirePermissions('WEBHOOK_OWNER')
  @ApiOperation({ summary: 'Remove a webhook and its deliveries', operationId: 'deleteWebhook' })
  @ApiOkResponse({ type: WebhookDeletedDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async delete(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookDeletedDto> {
    await this.webhooks.delete(principal, id);
    return { status: 'ok', message: 'Webhook removed', id };
  }

  /** A new signing secret, shown once; the old one stops signing at once. */
  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequirePermissions('WEBHOOK_OWNER')
  @ApiOperation({ summary: "Rotate a webhook's signing secret", operationId: 'rotateWebhookSecret' })
  @ApiOkResponse({ type: WebhookSecretResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async rotate(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookSecretResponseDto> {
    return {
      status: 'ok',
      message: 'Secret rotated; keep it, it is not shown again',
      webhook: await this.webhooks.rotateSecret(principal, id),
    };
  }

  /**
   * The deliveries of one of the organization's webhooks, newest first, by status: each attempt count, the receiver's
   * last HTTP status and when it is retried. Another organization's webhook is a 404.
   */
  @Post(':id/deliveries/view')
  @HttpCode(200)
  @RequirePermissions('WEBHOOK_OWNER')
  @ApiOperation({ summary: "List a webhook's deliveries, newest first", operationId: 'viewWebhookDeliveries' })
  @ApiOkResponse({ type: DeliveryPageDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  deliveries(
    @UuidParam('id') id: string,
    @Body() dto: DeliveryViewDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DeliveryPageDto> {
    return this.webhooks.deliveries(principal, id, dto);
  }

  /** Sends a delivery again at once (whatever its status), with a fresh count of attempts and the same `webhook-id`. */
  @Post('deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @RequirePermissions('WEBHOOK_OWNER')
  @ApiOperation({ summary: 'Send a webhook delivery again', operationId: 'redeliverWebhookDelivery' })
  @ApiOkResponse({ type: DeliveryResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async redeliver(@UuidParam('deliveryId') deliveryId: string, @CurrentPrincipal() principal: Principal): Promise<DeliveryResponseDto> {
    return { status: 'ok', message: 'Delivery queued', delivery: await this.webhooks.redeliver(principal, deliveryId) };
  }
}
