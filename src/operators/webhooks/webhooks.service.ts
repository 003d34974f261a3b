import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { SUPPORT_ORGANIZATION_ID } from '../../platform/organizations/organization.types';
import { EventType, STAFF_ONLY_EVENTS } from '../../platform/outbox/event-types';
import type {
  CreateWebhookDto,
  DeliveryDto,
  DeliveryViewDto,
  UpdateWebhookDto,
  WebhookDto,
  WebhookViewDto,
  WebhookWithSecretDto,
} from './dto/webhook.dto';
import { addressProblem } from './webhook-address';
import { DeliveryRow, WebhookRow, WebhooksRepository } from './webhooks.repository';

/** An organization's webhook endpoints: registered, changed, removed; their deliveries seen and sent again. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly uow: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(principal: Principal, dto: CreateWebhookDto): Promise<WebhookWithSecretDto> {
    await this.checkUrl(dto.url);
    this.checkEvents(principal, dto.events);
    const secret = newSecret();
    // Counted under the organization's lock, so creations at once never take it past the limit.
    const row = await this.uow.run(async () => {
      const count = await this.webhooks.lockAndCount(principal.organizationId);
      if (count >= this.config.webhooksPerOrganization) {
        throw new ApiError(
          'exception.webhook.limit_reached',
          `The organization has ${count} webhooks, the most it may have (${this.config.webhooksPerOrganization}); remove one first`,
        );
      }
      return this.webhooks.insert(principal.organizationId, {
        url: dto.url,
        events: dto.events,
        description: dto.description ?? null,
        secret,
        createdBy: principal.userId,
      });
    });
    return { ...toDto(row), secret };
  }

  async get(principal: Principal, id: string): Promise<WebhookDto> {
    return toDto(await this.found(principal, id));
  }

  async view(principal: Principal, dto: WebhookViewDto): Promise<Page<WebhookDto>> {
    const { offset, limit } = pageWindow(dto);
    const { total, rows } = await this.webhooks.page(principal.organizationId, offset, limit);
    return pageOf(dto, total, rows.map(toDto));
  }

  async update(principal: Principal, id: string, dto: UpdateWebhookDto): Promise<WebhookDto> {
    if (Object.values(dto).every((v) => v === undefined)) {
      throw new ApiError('exception.validation', 'body must change at least one field', [
        { parameter: 'body', message: 'send at least one field' },
      ]);
    }
    if (dto.url !== undefined) await this.checkUrl(dto.url);
    if (dto.events !== undefined) this.checkEvents(principal, dto.events);
    return this.uow.run(async () => {
      const current = await this.found(principal, id);
      const row = await this.webhooks.update(principal.organizationId, id, {
        url: dto.url ?? current.url,
        events: dto.events ?? current.events,
        description: dto.description === undefined ? current.description : dto.description,
        enabled: dto.enabled ?? current.enabled,
      });
      return toDto(row!);
    });
  }

  /** A new secret, answered once; deliveries from now on are signed with it. */
  async rotateSecret(principal: Principal, id: string): Promise<WebhookWithSecretDto> {
    const secret = newSecret();
    const row = await this.webhooks.rotateSecret(principal.organizationId, id, secret);
    if (!row) throw notFound();
    return { ...toDto(row), secret };
  }

  async delete(principal: Principal, id: string): Promise<void> {
    if (!(await this.webhooks.delete(principal.organizationId, id))) throw notFound();
  }

  async deliveries(principal: Principal, id: string, dto: DeliveryViewDto): Promise<Page<DeliveryDto>> {
    await this.found(principal, id);
    const { offset, limit } = pageWindow(dto);
    const { total, rows } = await this.webhooks.deliveries(id, dto.status ?? null, offset, limit);
    return pageOf(dto, total, rows.map(toDeliveryDto));
  }

  async redeliver(principal: Principal, deliveryId: string): Promise<DeliveryDto> {
    const row = await this.webhooks.redeliver(principal.organizationId, deliveryId);
    if (!row) throw new ApiError('exception.webhook.delivery_not_found', 'No such webhook delivery');
    return toDeliveryDto(row);
  }

  private async found(principal: Principal, id: string): Promise<WebhookRow> {
    const row = await this.webhooks.get(principal.organizationId, id);
    if (!row) throw notFound();
    return row;
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await addressProblem(url, { http: this.config.webhookAllowHttp, private: this.config.webhookAllowPrivate });
    if (problem) throw new ApiError('exception.webhook.url_refused', `The webhook URL is refused: ${problem.detail}`);
  }

  /** Staff-only events (a user put On Hold) only for the operator's support organization. */
  private checkEvents(principal: Principal, events: string[]): void {
    const forbidden = events.filter((e) => STAFF_ONLY_EVENTS.has(e as EventType));
    if (forbidden.length && principal.organizationId !== SUPPORT_ORGANIZATION_ID) {
      throw new ApiError('exception.webhook.event_forbidden', `Only the operator's staff may subscribe to ${forbidden.join(', ')}`);
    }
  }
}

function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function notFound(): ApiError {
  return new ApiError('exception.webhook.not_found', 'No such webhook');
}

function toDto(row: WebhookRow): WebhookDto {
  return {
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function toDeliveryDto(row: DeliveryRow): DeliveryDto {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    deliveredAt: row.delivered_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}
