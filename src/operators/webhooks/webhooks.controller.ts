import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import * as dto from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

const OWNER = { access: ['WEBHOOK_OWNER'] } as const;
/** One of the organization's webhooks: another organization's, like a missing one, is a 404. */
const ONE = { ...OWNER, errors: ['exception.webhook.not_found'] } as const;
const URL_REFUSED = ['exception.webhook.url_refused', 'not https, or not a public address'] as const;

@Routes('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** Registers an endpoint of the caller's organization; the signing secret is in this answer only. */
  @Route('POST', '', {
    ...OWNER,
    summary: 'Register a webhook endpoint',
    errors: [URL_REFUSED, ['exception.webhook.limit_reached', 'the organization already has WEBHOOKS_PER_ORGANIZATION webhooks']],
  })
  async createWebhook(@Body() body: dto.CreateWebhookDto, @Caller() caller: Principal): Promise<dto.WebhookSecretResponseDto> {
    const webhook = await this.webhooks.create(caller, body);
    return { status: 'ok', message: 'Webhook registered; keep the secret, it is not shown again', webhook };
  }

  /** The webhook endpoints of the caller's organization, never their signing secrets. */
  @Route('POST', 'view', { ...OWNER, summary: "List the organization's webhooks", status: 200 })
  viewWebhooks(@Body() body: dto.WebhookViewDto, @Caller() caller: Principal): Promise<dto.WebhookPageDto> {
    return this.webhooks.view(caller, body);
  }

  /** One of the organization's webhook endpoints; the signing secret is shown only when registered or rotated. */
  @Route('GET', ':id', { ...ONE, summary: 'Get a webhook (without its secret)' })
  async getWebhook(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.WebhookResponseDto> {
    return { status: 'ok', message: 'OK', webhook: await this.webhooks.get(caller, id) };
  }

  /** Changes the fields sent; `enabled: false` stops new events reaching it. */
  @Route('PATCH', ':id', { ...ONE, summary: 'Change a webhook', errors: [...ONE.errors, URL_REFUSED] })
  async updateWebhook(
    @UuidParam('id') id: string,
    @Body() body: dto.UpdateWebhookDto,
    @Caller() caller: Principal,
  ): Promise<dto.WebhookResponseDto> {
    return { status: 'ok', message: 'Webhook changed', webhook: await this.webhooks.update(caller, id, body) };
  }

  /** Removes one of the organization's webhook endpoints with its deliveries: no event reaches it any more. */
  @Route('DELETE', ':id', { ...ONE, summary: 'Remove a webhook and its deliveries' })
  async deleteWebhook(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.WebhookDeletedDto> {
    await this.webhooks.delete(caller, id);
    return { status: 'ok', message: 'Webhook removed', id };
  }

  /** A new signing secret, shown once; the old one stops signing at once. */
  @Route('POST', ':id/rotate-secret', { ...ONE, summary: "Rotate a webhook's signing secret", status: 200 })
  async rotateWebhookSecret(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.WebhookSecretResponseDto> {
    const webhook = await this.webhooks.rotateSecret(caller, id);
    return { status: 'ok', message: 'Secret rotated; keep it, it is not shown again', webhook };
  }

  /** A webhook's deliveries, newest first, by status: each one's attempt count, the receiver's last HTTP status and its next retry. */
  @Route('POST', ':id/deliveries/view', { ...ONE, summary: "List a webhook's deliveries, newest first", status: 200 })
  viewWebhookDeliveries(
    @UuidParam('id') id: string,
    @Body() body: dto.DeliveryViewDto,
    @Caller() caller: Principal,
  ): Promise<dto.DeliveryPageDto> {
    return this.webhooks.deliveries(caller, id, body);
  }

  /** Sends a delivery again at once (whatever its status), with a fresh count of attempts and the same `webhook-id`. */
  @Route('POST', 'deliveries/:deliveryId/redeliver', {
    ...OWNER,
    summary: 'Send a webhook delivery again',
    status: 200,
    errors: ['exception.webhook.delivery_not_found'],
  })
  async redeliverWebhookDelivery(
    @UuidParam('deliveryId') deliveryId: string,
    @Caller() caller: Principal,
  ): Promise<dto.DeliveryResponseDto> {
    return { status: 'ok', message: 'Delivery queued', delivery: await this.webhooks.redeliver(caller, deliveryId) };
  }
}
