import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DomainEvents } from './domain-events';
import { OutboxRepository } from './outbox.repository';
import { OutboxService } from './outbox.service';

/** Global: the ledger kernel and every feature publish events through OutboxService; `@OnDomainEvent` handlers hear them (DomainEvents). */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [OutboxRepository, OutboxService, DomainEvents],
  exports: [OutboxService],
})
export class OutboxModule {}
