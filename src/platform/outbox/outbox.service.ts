import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { serializeJson } from '../common/json-decimal';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DatabaseNotifications } from '../database/notifications';
import { UnitOfWork } from '../database/unit-of-work';
import { WriteWatch } from '../database/write-watch';
import { DomainEvents } from './domain-events';
import type { EventType } from './event-types';
import { OutboxRepository } from './outbox.repository';

/** The channel the database announces changes to `webhooks` on (migration 1763801620000). */
const WEBHOOKS_CHANNEL = 'finapi_webhooks';

/**
 * The one way to publish an event, and the transactional outbox. `emit` writes the event (and its webhook deliveries)
 * inside the open transaction — none for a rolled-back change, none lost by a crash after the commit — and, once the
 * transaction commits, wakes the dispatchers listening in this instance (others find the rows by polling). In the
 * same transaction it hands the event to this process's `@OnDomainEvent` handlers (DomainEvents), whether or not a
 * webhook listens.
 * One event reaches at most WEBHOOKS_PER_ORGANIZATION webhooks of each organization, even past the limit in the table.
 *
 * An event no enabled webhook of its organizations listens to is not written at all, so a money movement of
 * organizations without webhooks costs no statement. Which organizations listen to what is read once and kept
 * until `webhooks` changes: on this instance the moment the change commits (WriteWatch), on the others when the
 * database announces it (NOTIFY, milliseconds). While the listening connection is down every event is written.
 */
@Injectable()
export class OutboxService implements OnModuleInit {
  private readonly listeners: Array<() => void> = [];
  /** Organization → the event types its enabled webhooks listen to; undefined until (re)read. */
  private subscriptions?: Map<string, Set<string>>;
  private generation = 0;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly uow: UnitOfWork,
    private readonly notifications: DatabaseNotifications,
    private readonly writes: WriteWatch,
    private readonly events: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const forget = () => {
      this.generation++;
      this.subscriptions = undefined;
    };
    this.notifications.subscribe(WEBHOOKS_CHANNEL, { message: forget, reset: forget });
    this.writes.watch(['webhooks'], forget, { inserts: true });
  }

  /**
   * Publishes `type` about the objects of `organizationIds` (duplicates and nulls ignored), in the open transaction:
   * recorded for those organizations' webhooks, and heard by the in-process handlers. Answers a promise to wait for,
   * or nothing when it is done already: no webhook listens, as this instance knows, and no handler had work to wait for
   * (DomainEvents.dispatch) — a money movement of organizations without webhooks then costs no promise.
   */
  emit(type: EventType, organizationIds: ReadonlyArray<string | null | undefined>, data: unknown): Promise<void> | undefined {
    const organizations = [...new Set(organizationIds.filter((o): o is string => !!o))];
    const recorded = this.knownListened(type, organizations);
    // Nothing to record: only the in-process handlers (dispatch runs them in the open transaction, or one of their own;
    // it answers nothing when there are none).
    if (recorded === false) return this.events.dispatch({ type, organizationIds: organizations, data });
    return this.record(type, organizations, data, recorded);
  }

  /** `emit` when a webhook may listen (`recorded`), or this instance does not know yet (undefined). */
  private async record(type: EventType, organizations: string[], data: unknown, recorded: true | undefined): Promise<void> {
    if (!(recorded ?? (await this.listened(type, organizations)))) {
      await this.events.dispatch({ type, organizationIds: organizations, data });
      return;
    }
    await this.uow.run(async () => {
      const { deliveries } = await this.outbox.insert(type, organizations, serializeJson(data), this.config.webhooksPerOrganization);
      if (deliveries > 0) this.uow.afterCommit(() => this.listeners.forEach((wake) => wake()));
      await this.events.dispatch({ type, organizationIds: organizations, data });
    });
  }

  /** Called after every commit that queued a delivery (the webhook dispatcher). */
  onEmitted(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Whether an enabled webhook of one of `organizations` may listen to `type`, from what this instance keeps (true when it cannot be sure); undefined when it keeps nothing yet. */
  private knownListened(type: EventType, organizations: string[]): boolean | undefined {
    if (!this.notifications.live()) return true;
    const subscriptions = this.subscriptions;
    return subscriptions && organizations.some((o) => subscriptions.get(o)?.has(type));
  }

  /** Whether an enabled webhook of one of `organizations` listens to `type`, read anew (when `knownListened` cannot tell). */
  private async listened(type: EventType, organizations: string[]): Promise<boolean> {
    const generation = this.generation;
    const subscriptions = new Map<string, Set<string>>();
    for (const row of await this.outbox.subscriptions()) subscriptions.set(row.organization_id, new Set(row.events));
    if (generation === this.generation && this.notifications.live()) this.subscriptions = subscriptions;
    return organizations.some((o) => subscriptions.get(o)?.has(type));
  }
}
