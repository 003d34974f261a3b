import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { UnitOfWork } from '../database/unit-of-work';
import type { EventType } from './event-types';
import { logFailure } from '../common/outage';

/**
 * When a handler runs. `in-transaction`: inside the transaction of the change that published the event, before the
 * publisher goes on — its writes commit or roll back with the change, and its throw aborts the change (the
 * request answers that error). `after-commit`: once that transaction committed, outside it and any request — it
 * never runs after a rollback, and its failure is logged without touching the answer.
 */
export type DomainEventPhase = 'in-transaction' | 'after-commit';

/** An event as its handlers receive it: the catalogue's type, the organizations it is about, and its data (what webhooks get). */
export interface DomainEvent<T = unknown> {
  readonly type: EventType;
  readonly organizationIds: readonly string[];
  /** The publisher's own object (its answer, often): read it, never change it. */
  readonly data: T;
}

interface Subscription {
  type: EventType;
  phase: DomainEventPhase;
}

interface Handler {
  /** `Class.method`, for logs and the after-commit job's name. */
  name: string;
  phase: DomainEventPhase;
  /** The method's answer: a promise to wait for, or anything else when it is done. */
  handle: (event: DomainEvent) => unknown;
}

const SUBSCRIPTIONS = Symbol('finapi:domain-event-subscriptions');

/**
 * Makes a method of a provider (a singleton) a handler of `type`, in `phase` (DomainEvents finds it at start). A
 * method may handle several types. The handler gets the DomainEvent and answers a promise when it has work to wait for
 * (it is then waited for), anything else when it is done: an in-transaction handler that finds nothing to do answers at
 * once, so a money movement nobody listens to costs no promise.
 */
export function OnDomainEvent(type: EventType, options: { phase: DomainEventPhase }): MethodDecorator {
  return (_target, _key, descriptor) => {
    const method = descriptor.value as object;
    const subscriptions = (Reflect.getMetadata(SUBSCRIPTIONS, method) as Subscription[] | undefined) ?? [];
    Reflect.defineMetadata(SUBSCRIPTIONS, [...subscriptions, { type, phase: options.phase }], method);
  };
}

/**
 * The in-process side of events: how one module reacts to what another did without calling it. OutboxService.emit,
 * the one way to publish, records the event for webhooks and hands it here. Handlers are the `@OnDomainEvent`
 * methods of the application's providers, found once at start; those of one event run in the order the application
 * registers their providers — in-transaction ones one at a time, each awaited before the next and all before `emit`
 * returns; after-commit ones each on their own once the transaction committed, as a job named after the handler.
 */
@Injectable()
export class DomainEvents implements OnModuleInit {
  private readonly logger = new Logger(DomainEvents.name);
  private readonly handlers = new Map<EventType, Handler[]>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly uow: UnitOfWork,
  ) {}

  /** Every provider is built before any module starts: the handlers are all known before the first event. */
  onModuleInit(): void {
    const seen = new Set<object>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || seen.has(instance)) continue;
      seen.add(instance);
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const subscriptions = Reflect.getMetadata(SUBSCRIPTIONS, prototype[method] as object) as Subscription[] | undefined;
        if (!subscriptions) continue;
        const name = `${instance.constructor.name}.${method}`;
        // A request-scoped or transient provider has no one instance to call.
        if (!wrapper.isDependencyTreeStatic()) throw new Error(`${name} handles domain events: its provider must be a singleton`);
        const handle = (event: DomainEvent) => (instance as Record<string, (event: DomainEvent) => unknown>)[method](event);
        for (const { type, phase } of subscriptions) this.handlers.set(type, [...(this.handlers.get(type) ?? []), { name, phase, handle }]);
      }
    }
  }

  /** Whether any handler listens to `type`. */
  heard(type: EventType): boolean {
    return this.handlers.has(type);
  }

  /**
   * Runs the in-transaction handlers of `event` in the open transaction (one of its own when none is) and schedules the
   * others after its commit. A handler with nothing to do may answer at once, without a promise (most money movements:
   * nobody asked for a notice, no voucher was claimed); when every one does, so does `dispatch` — it answers a promise
   * only when one of them did, and the handlers after it wait for it, as they always do.
   */
  dispatch(event: DomainEvent): Promise<void> | undefined {
    const handlers = this.handlers.get(event.type);
    if (!handlers) return undefined;
    if (!this.uow.current()) return this.uow.run(async () => this.runFrom(handlers, 0, event));
    return this.runFrom(handlers, 0, event);
  }

  /** The handlers from `first` on, in order, each in-transaction one waited for when it answers a promise. */
  private runFrom(handlers: Handler[], first: number, event: DomainEvent): Promise<void> | undefined {
    for (let i = first; i < handlers.length; i++) {
      const handler = handlers[i];
      if (handler.phase !== 'in-transaction') {
        this.uow.afterCommit(() => this.afterCommit(handler, event));
        continue;
      }
      const answer = handler.handle(event);
      if (answer instanceof Promise) return answer.then(() => this.runFrom(handlers, i + 1, event));
    }
    return undefined;
  }

  private async afterCommit(handler: Handler, event: DomainEvent): Promise<void> {
    try {
      await this.uow.asJob(handler.name, () => handler.handle(event));
    } catch (error) {
      // The change is committed and answered: a reaction that fails after it is the reaction's own failure.
      logFailure(
        this.logger,
        handler.name,
        error,
        `${handler.name} failed on ${event.type}: ${error instanceof Error ? error.stack : String(error)}`,
      );
    }
  }
}
