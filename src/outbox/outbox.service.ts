import { Injectable } from '@nestjs/common';
import { serializeJson } from '../common/json-decimal';
import { UnitOfWork } from '../database/unit-of-work';
import type { EventType } from './event-types';
import { OutboxRepository } from './outbox.repository';

/**
 * The transactional outbox. `emit` writes the event (and its webhook deliveries) inside the open
 * transaction — none for a rolled-back change, none lost by a crash after the commit — and, once the
 * transaction commits, wakes the dispatchers listening in this instance (others find the rows by polling).
 */
@Injectable()
export class OutboxService {
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly uow: UnitOfWork,
  ) {}

  /** Records `type` about the objects of `organizationIds` (duplicates and nulls ignored), in the open transaction. */
  async emit(type: EventType, organizationIds: ReadonlyArray<string | null | undefined>, data: unknown): Promise<void> {
    const organizations = [...new Set(organizationIds.filter((o): o is string => !!o))];
    const { deliveries } = await this.uow.run(() => this.outbox.insert(type, organizations, serializeJson(data)));
    if (deliveries > 0) this.uow.afterCommit(() => this.listeners.forEach((wake) => wake()));
  }

  /** Called after every commit that queued a delivery (the webhook dispatcher). */
  onEmitted(listener: () => void): void {
    this.listeners.push(listener);
  }
}
