import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { webhookDeliveries } from '../../platform/common/metrics';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { AddressRefused, addressProblem, guardedLookup } from './webhook-address';
import { backoffMs, MAX_ATTEMPTS, sign } from './webhook-signature';
import { ClaimedDelivery, WebhooksRepository } from './webhooks.repository';
import { ClaimLoop } from '../../platform/common/claim-loop';

const BATCH = 20;

/**
 * Sends webhook deliveries: in every instance, woken after each commit that queued one and every
 * WEBHOOK_POLL_MS. A claim leases rows (webhooks.repository.ts), so instances never send one delivery
 * at the same time; a crash leaves the lease to run out, and the delivery is sent again (at least once).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loop: ClaimLoop<ClaimedDelivery>;
  private readonly logger = new Logger(WebhookDispatcher.name);
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly outbox: OutboxService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.loop = new ClaimLoop<ClaimedDelivery>({
      logger: this.logger,
      what: 'webhook',
      pollMs: this.config.webhookPollMs,
      claim: () => this.webhooks.claim(BATCH, 2 * this.config.webhookTimeoutMs + 1000),
      deliver: (d) => this.deliver(d),
    });
  }

  onApplicationBootstrap(): void {
    this.outbox.onEmitted(() => this.loop.wake());
    this.loop.start();
  }

  /** Background work stops before the pools close (actuator/shutdown.ts). */
  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const body = `{"id":${JSON.stringify(d.event_id)},"type":${JSON.stringify(d.type)},"createdAt":${JSON.stringify(
      d.event_created_at.toISOString(),
    )},"data":${d.data}}`;
    let statusCode: number | null = null;
    let error: string | null = null;
    // The address is checked again at each attempt: DNS may have changed since the registration. And the connection
    // resolves the host through guardedLookup, so it reaches only addresses judged as it connects (DNS rebinding).
    const problem = await addressProblem(d.url, { http: this.config.webhookAllowHttp, private: this.config.webhookAllowPrivate });
    if (problem) error = `refused: ${problem.detail}`;
    else {
      const timestamp = Math.floor(Date.now() / 1000);
      try {
        statusCode = await post(
          d.url,
          {
            'content-type': 'application/json',
            'user-agent': 'finapi-webhooks/1',
            'webhook-id': d.event_id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': sign(d.secret, d.event_id, timestamp, body),
          },
          body,
          this.config.webhookTimeoutMs,
          this.config.webhookAllowPrivate ? undefined : guardedLookup,
        );
        if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
      } catch (e) {
        if (e instanceof AddressRefused) error = `refused: ${e.message}`;
        else error = e instanceof Error ? (e.name === 'AbortError' ? 'timeout' : e.message) : String(e);
      }
    }
    const delivered = error === null;
    const retryInMs = delivered || d.attempts >= MAX_ATTEMPTS ? null : backoffMs(this.config.webhookRetryBaseMs, d.attempts);
    webhookDeliveries.inc({ outcome: delivered ? 'delivered' : retryInMs === null ? 'failed' : 'retry' });
    await this.webhooks.finish(d.id, d.attempts, { delivered, statusCode, error: error?.slice(0, 500) ?? null, retryInMs });
  }
}

/**
 * POSTs `body` and answers the status code (redirects are not followed; the answer's body is not read). `lookup`
 * resolves the host of the connection; `timeoutMs` bounds the whole exchange (an AbortError past it).
 */
function post(url: string, headers: OutgoingHttpHeaders, body: string, timeoutMs: number, lookup?: LookupFunction): Promise<number> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
