import 'reflect-metadata';
import { Injectable, LoggerService, Module, Scope, Type } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { Pool } from 'pg';
import { PRIMARY_POOL } from '../../src/platform/database/primary-pool';
import { UnitOfWork } from '../../src/platform/database/unit-of-work';
import { DomainEvent, DomainEvents, OnDomainEvent } from '../../src/platform/outbox/domain-events';
import { printObservations } from './harness';

/**
 * Drives the in-process event bus (DomainEvents, what OutboxService.emit hands each event to) with two modules'
 * handlers against a real PostgreSQL (DATABASE_URL): the phases, their order, a handler that throws in the
 * transaction, one that fails after the commit, a rollback after publishing. Prints one JSON object of
 * observations; test/domain-events.e2e.spec.ts asserts on it.
 */

/** What handlers saw, in order: kept in memory, so it outlives a rollback (the table does not). */
const seen: string[] = [];
const logged: string[] = [];

interface Paid {
  id: string;
  fail?: 'in-transaction' | 'after-commit';
}

@Injectable()
class Invoicing {
  constructor(private readonly uow: UnitOfWork) {}

  @OnDomainEvent('invoice.paid', { phase: 'in-transaction' })
  async paid({ data }: DomainEvent<Paid>): Promise<void> {
    seen.push(`invoicing in ${data.id} transaction=${!!this.uow.current()}`);
    await this.uow.current()!.client.query('INSERT INTO reactions (what) VALUES ($1)', [`invoicing ${data.id}`]);
    if (data.fail === 'in-transaction') throw new Error('invoicing refuses');
  }

  @OnDomainEvent('invoice.paid', { phase: 'after-commit' })
  @OnDomainEvent('invoice.expired', { phase: 'after-commit' })
  async later({ type, data }: DomainEvent<Paid>): Promise<void> {
    seen.push(`invoicing after ${type} ${data.id} transaction=${!!this.uow.current()} job=${this.uow.meta().job}`);
    if (data.fail === 'after-commit') throw new Error('the reaction failed');
  }
}

@Injectable()
class Reporting {
  constructor(private readonly uow: UnitOfWork) {}

  @OnDomainEvent('invoice.paid', { phase: 'in-transaction' })
  async paid({ data }: DomainEvent<Paid>): Promise<void> {
    seen.push(`reporting in ${data.id}`);
    await this.uow.current()!.client.query('INSERT INTO reactions (what) VALUES ($1)', [`reporting ${data.id}`]);
  }

  @OnDomainEvent('invoice.paid', { phase: 'after-commit' })
  later({ data, organizationIds }: DomainEvent<Paid>): void {
    seen.push(`reporting after ${data.id} for ${organizationIds.join(',')}`);
  }
}

/** Handlers that answer at once, without a promise (an in-transaction handler with nothing to wait for). */
@Injectable()
class Tally {
  @OnDomainEvent('invoice.paid', { phase: 'in-transaction' })
  counted({ data }: DomainEvent<Paid>): void {
    seen.push(`tally in ${data.id}`);
  }

  @OnDomainEvent('invoice.expired', { phase: 'in-transaction' })
  expired({ data }: DomainEvent<Paid>): void {
    seen.push(`tally expired ${data.id} transaction=${!!this.uow.current()}`);
    if (data.fail === 'in-transaction') throw new Error('tally refuses');
  }

  constructor(private readonly uow: UnitOfWork) {}
}

@Injectable({ scope: Scope.REQUEST })
class PerRequest {
  @OnDomainEvent('invoice.paid', { phase: 'after-commit' })
  later(): void {}
}

const capture: LoggerService = {
  log: () => undefined,
  warn: () => undefined,
  debug: () => undefined,
  verbose: () => undefined,
  error: (message: unknown) => void logged.push(String(message)),
};

function busOf(pool: Pool, listeners: Type[]) {
  @Module({ imports: [DiscoveryModule], providers: [{ provide: PRIMARY_POOL, useValue: pool }, UnitOfWork, DomainEvents, ...listeners] })
  class Bus {}
  return NestFactory.createApplicationContext(Bus, { logger: capture });
}

/** The after-commit handlers run on their own, after the publisher had its answer: wait for them (a minute at most). */
async function until(done: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 60_000; !done() && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 5));
}

const settle = () => new Promise((r) => setTimeout(r, 100));

async function main(): Promise<Record<string, unknown>> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL!, max: 4 });
  await pool.query('CREATE TABLE reactions (seq serial PRIMARY KEY, what text NOT NULL)');
  const app = await busOf(pool, [Invoicing, Reporting]);
  const uow = app.get(UnitOfWork);
  const events = app.get(DomainEvents);
  const out: Record<string, unknown> = {};
  const paid = (id: string, fail?: Paid['fail']) =>
    events.dispatch({ type: 'invoice.paid', organizationIds: ['org-1'], data: { id, ...(fail ? { fail } : {}) } });
  const committed = async () => (await pool.query<{ what: string }>('SELECT what FROM reactions ORDER BY seq')).rows.map((r) => r.what);
  const scenario = async (name: string, run: () => Promise<unknown> | undefined, expected: number) => {
    seen.length = 0;
    logged.length = 0;
    await pool.query('TRUNCATE reactions');
    let answer: unknown;
    try {
      answer = await run();
    } catch (error) {
      answer = `threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    await until(() => seen.length >= expected);
    await settle();
    out[name] = { answer, seen: [...seen], committed: await committed(), logged: [...logged] };
  };
  try {
    await scenario(
      'ordered',
      () =>
        uow.run(async () => {
          await uow.current()!.client.query(`INSERT INTO reactions (what) VALUES ('the change')`);
          await paid('A');
          seen.push('the publisher goes on');
          await paid('B');
          seen.push(`committed yet: ${seen.some((s) => s.includes('after'))}`);
          return 'answered';
        }),
      10,
    );
    await scenario(
      'inTransactionThrows',
      () =>
        uow.run(async () => {
          await uow.current()!.client.query(`INSERT INTO reactions (what) VALUES ('the change')`);
          await paid('C', 'in-transaction');
          seen.push('the publisher goes on');
        }),
      1,
    );
    await scenario(
      'rolledBackAfterPublishing',
      () =>
        uow.run(async () => {
          await paid('D');
          throw new Error('the publisher fails afterwards');
        }),
      2,
    );
    await scenario('afterCommitFails', () => uow.run(async () => (await paid('E', 'after-commit'), 'answered')), 4);
    await scenario('noTransactionOpen', () => paid('F'), 4);
    await scenario(
      'otherTypes',
      async () => {
        await events.dispatch({ type: 'user.on_hold', organizationIds: [], data: {} });
        await events.dispatch({ type: 'invoice.expired', organizationIds: [], data: { id: 'G' } });
        return { invoiceExpired: events.heard('invoice.expired'), userOnHold: events.heard('user.on_hold') };
      },
      1,
    );
    // A bus whose first handler of each type answers at once: `dispatch` answers nothing to wait for when every
    // in-transaction handler did, and the handlers after one that answers a promise wait for it.
    const tallied = await busOf(pool, [Tally, Reporting]);
    const quick = tallied.get(DomainEvents);
    try {
      await scenario(
        'answersAtOnce',
        () =>
          uow.run(async () => {
            await uow.current()!.client.query(`INSERT INTO reactions (what) VALUES ('the change')`);
            const expired = quick.dispatch({ type: 'invoice.expired', organizationIds: [], data: { id: 'H' } });
            seen.push(`expired answered ${expired === undefined ? 'nothing to wait for' : 'a promise'}`);
            const paidToo = quick.dispatch({ type: 'invoice.paid', organizationIds: ['org-1'], data: { id: 'I' } });
            seen.push(`paid answered ${paidToo instanceof Promise ? 'a promise' : 'nothing to wait for'}`);
            await paidToo;
            seen.push('the publisher goes on');
            return 'answered';
          }),
        7,
      );
      await scenario(
        'answersAtOnceThrows',
        () =>
          uow.run(async () => {
            await uow.current()!.client.query(`INSERT INTO reactions (what) VALUES ('the change')`);
            quick.dispatch({ type: 'invoice.expired', organizationIds: [], data: { id: 'J', fail: 'in-transaction' } });
            seen.push('the publisher goes on');
          }),
        1,
      );
      await scenario(
        'answersAtOnceWithoutTransaction',
        () => quick.dispatch({ type: 'invoice.expired', organizationIds: [], data: { id: 'K' } }),
        1,
      );
    } finally {
      await tallied.close();
    }
    try {
      await (await busOf(pool, [PerRequest])).close();
      out.requestScoped = 'started';
    } catch (error) {
      out.requestScoped = error instanceof Error ? error.message : String(error);
    }
  } finally {
    await app.close();
    await pool.end();
  }
  return out;
}

printObservations(main);
