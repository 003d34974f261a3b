import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { addDays, CalendarDate, utcToday } from '../../platform/scheduler/scheduler.clock';
import { RunCounts, ScheduledJob, SchedulerService } from '../../platform/scheduler/scheduler.service';
import type { ScheduledRunRow } from '../../platform/scheduler/scheduler.repository';
import { TransfersService } from '../transfers/transfers.service';
import type { CreateSubscriptionDto, SubscriptionDto, SubscriptionStatus } from './dto/subscription.dto';
import { dueDateOf } from './subscription-dates';
import { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository';

/** The scheduler's name for subscription runs: their run records and idempotency keys (`subscription:<id>:<date>`). */
export const SUBSCRIPTION_JOB = 'subscription';
/** Due subscriptions read per query of a pass. */
const BATCH = 100;

/** The date of a date or a date-time (its date in UTC). */
function dateOf(text: string): CalendarDate {
  return text.length === 10 ? text : utcToday(new Date(text));
}

/**
 * Subscriptions: one of the owner's transfer templates paid on each due date by the kernel's scheduler (SchedulerService),
 * exactly once per due date across instances, through TransfersService (so ledger.execute, with the template's coins,
 * checks and fee). A due date whose payment is refused (insufficient funds, a coin closed, the owner no longer a member)
 * is recorded as failed and the subscription goes on to its next due date: a missed payment is not retried, and the owner
 * sees it in `lastRun`. Due dates missed while no instance ran are each run when one does, oldest first; those that fell
 * while the subscription was stopped are skipped when it is activated again. A subscription belongs to the user who
 * created it, for the organization they acted for; anyone else gets a 404.
 */
@Injectable()
export class SubscriptionsService implements OnModuleInit, ScheduledJob {
  readonly name = SUBSCRIPTION_JOB;
  private readonly logger = new Logger(SubscriptionsService.name);

  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly scheduler: SchedulerService,
    private readonly transfers: TransfersService,
    private readonly uow: UnitOfWork,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(this);
  }

  async create(principal: Principal, dto: CreateSubscriptionDto): Promise<SubscriptionDto> {
    const start = dateOf(dto.recurringStartDate);
    if (start < addDays(utcToday(), -1)) throw ApiError.invalid('recurringStartDate', 'must be today or later');
    const endDate = dto.expirationType === 'DATE' ? dateOf(dto.endDate!) : null;
    if (endDate !== null && endDate < start) throw ApiError.invalid('endDate', 'must not be before recurringStartDate');
    return this.uow.run(async () => {
      const template = await this.template(principal, dto.templateId);
      const maxAmount = dto.expirationType === 'AMOUNT' ? parseAmount(dto.amount, scaleOf(template.fraction)).toFixed() : null;
      const id = await this.subscriptions.insert({
        userId: principal.userId,
        organizationId: principal.organizationId,
        templateId: dto.templateId,
        name: dto.name,
        period: dto.type,
        frequency: Number(dto.frequency),
        startDate: start,
        expirationType: dto.expirationType,
        endDate,
        maxCount: dto.expirationType === 'COUNT' ? Number(dto.count) : null,
        maxAmount,
      });
      return this.answer((await this.subscriptions.own(principal.userId, principal.organizationId, id))!);
    });
  }

  /** The caller's subscriptions (for the organization they act for), oldest first, with each one's latest run. */
  async list(principal: Principal): Promise<SubscriptionDto[]> {
    const rows = await this.subscriptions.list(principal.userId, principal.organizationId);
    const latest = await this.scheduler.latestRuns(
      SUBSCRIPTION_JOB,
      rows.map((r) => r.id),
    );
    return rows.map((row) => toSubscription(row, latest.get(row.id)));
  }

  /** Pays on its due dates again; due dates that fell while it was stopped are skipped. An ended one is a 409. */
  async activate(principal: Principal, id: string): Promise<SubscriptionDto> {
    return this.uow.run(async () => {
      const row = await this.own(principal, id, true);
      if (row.status === 'PROCESSED' || row.status === 'CANCELLED') throw finished(row);
      if (row.status === 'STOPPED') {
        let occurrence = row.occurrence;
        const today = utcToday();
        while (dueDateOf(row.start_date, row.period, row.frequency, occurrence) < today) occurrence++;
        const nextDue = dueDateOf(row.start_date, row.period, row.frequency, occurrence);
        const ended = row.end_date !== null && nextDue > row.end_date;
        await this.subscriptions.advance(row.id, { occurrence, nextDue, ran: false, paid: '0', status: ended ? 'PROCESSED' : 'ACTIVE' });
      }
      return this.answer((await this.subscriptions.own(principal.userId, principal.organizationId, id))!);
    });
  }

  /** No payments until activated again; stopping a stopped one changes nothing. An ended one is a 409. */
  async stop(principal: Principal, id: string): Promise<SubscriptionDto> {
    return this.uow.run(async () => {
      const row = await this.own(principal, id, true);
      if (row.status === 'PROCESSED' || row.status === 'CANCELLED') throw finished(row);
      if (row.status === 'ACTIVE') {
        await this.subscriptions.advance(row.id, {
          occurrence: row.occurrence,
          nextDue: row.next_due,
          ran: false,
          paid: '0',
          status: 'STOPPED',
        });
      }
      return this.answer((await this.subscriptions.own(principal.userId, principal.organizationId, id))!);
    });
  }

  /** Deletes it (a run in flight finishes first: it holds the row); its payments and run records stay. Answers it as it was. */
  async delete(principal: Principal, id: string): Promise<SubscriptionDto> {
    return this.uow.run(async () => {
      const row = await this.own(principal, id, true);
      const answer = await this.answer(row);
      await this.subscriptions.delete(row.id);
      return answer;
    });
  }

  /** The scheduler's pass: every active subscription's due dates up to `today`, one transaction each. */
  async runDue(today: CalendarDate): Promise<RunCounts> {
    const counts: RunCounts = { processed: 0, failed: 0 };
    for (;;) {
      const due = await this.subscriptions.due(today, BATCH);
      let progressed = false;
      for (const { id, next_due } of due) {
        const outcome = await this.runOne(id, next_due);
        if (outcome === 'processed' || outcome === 'failed') counts[outcome]++;
        if (outcome !== 'skipped') progressed = true;
      }
      // Nothing due, or all of it another instance is running: it moves them on.
      if (!progressed) return counts;
    }
  }

  /**
   * Pays one due date of one subscription, or records why it could not; 'moved' when it moved on without a run: its
   * amount reached (it ends), or the due date found run already (it cannot be paid twice; its next due date follows).
   */
  private async runOne(id: string, dueDate: CalendarDate): Promise<'processed' | 'failed' | 'skipped' | 'moved'> {
    const owner = await this.subscriptions.ownerRole(id);
    if (!owner) return 'skipped';
    let moved = false;
    const outcome = await this.scheduler.runOnce(
      {
        job: SUBSCRIPTION_JOB,
        subject: id,
        dueDate,
        ...(owner.role ? { actor: { userId: owner.user_id, role: owner.role, organizationId: owner.organization_id } } : {}),
      },
      async (claim) => {
        const row = await this.subscriptions.lockDue(id, dueDate, true);
        if (!row) return undefined;
        const amount = new Money(row.amount);
        if (row.max_amount !== null && new Money(row.paid).plus(amount).gt(row.max_amount)) {
          await this.subscriptions.advance(row.id, {
            occurrence: row.occurrence,
            nextDue: row.next_due,
            ran: false,
            paid: '0',
            status: 'PROCESSED',
          });
          moved = true;
          return undefined;
        }
        if (!(await claim())) {
          this.logger.warn(`Subscription ${id}: ${dueDate} was run already; moved on to its next due date without paying`);
          await this.moveOn(row, '0', false);
          moved = true;
          return undefined;
        }
        if (!owner.role)
          throw new ApiError('exception.authorization.no_membership', 'The subscription’s owner is no longer a member of its organization');
        const operation = await this.transfers.transfer(ownerPrincipal(row, owner.role), {
          paymentTool: { type: 'COIN', srcValue: row.payer_coin, destValue: row.payee_coin },
          amount: row.amount,
          description: row.description ?? `Subscription ${row.name}`,
          ...(row.custom_information ? { customInformation: row.custom_information } : {}),
        });
        await this.moveOn(row, amount.toFixed(), true);
        return { operationId: operation.id };
      },
      async (claim) => {
        const row = await this.subscriptions.lockDue(id, dueDate, false);
        if (!row || !(await claim())) return false;
        await this.moveOn(row, '0', true);
        return true;
      },
    );
    return moved ? 'moved' : outcome;
  }

  /** After a due date (`ran`: counted as a run): the next occurrence, and whether it ends the subscription (its count or end date reached). */
  private async moveOn(row: SubscriptionRow, paid: string, ran: boolean): Promise<void> {
    const occurrence = row.occurrence + 1;
    const nextDue = dueDateOf(row.start_date, row.period, row.frequency, occurrence);
    const runs = row.runs + (ran ? 1 : 0);
    const ended = (row.max_count !== null && runs >= row.max_count) || (row.end_date !== null && nextDue > row.end_date);
    await this.subscriptions.advance(row.id, { occurrence, nextDue, ran, paid, status: ended ? 'PROCESSED' : 'ACTIVE' });
  }

  private async template(principal: Principal, templateId: string): Promise<{ fraction: string }> {
    const [row] = await this.subscriptions.templateOf(principal.userId, principal.organizationId, templateId);
    if (!row) throw new ApiError('exception.transfer_template.not_found', 'No such transfer template');
    return row;
  }

  private async own(principal: Principal, id: string, lock = false): Promise<SubscriptionRow> {
    const row = await this.subscriptions.own(principal.userId, principal.organizationId, id, lock);
    if (!row) throw new ApiError('exception.subscription.not_found', 'No such subscription');
    return row;
  }

  private async answer(row: SubscriptionRow): Promise<SubscriptionDto> {
    return toSubscription(row, (await this.scheduler.latestRuns(SUBSCRIPTION_JOB, [row.id])).get(row.id));
  }
}

function finished(row: SubscriptionRow): ApiError {
  return new ApiError('exception.subscription.finished', `The subscription has ended (${row.status})`);
}

/**
 * The subscription's owner as the payer of its transfers. TransfersService reads only whose user and organization pay;
 * the rest of a request's principal (its token, the names it echoes) has no meaning for the scheduler's work.
 */
function ownerPrincipal(row: SubscriptionRow, role: string): Principal {
  return { userId: row.user_id, organizationId: row.organization_id, role } as Principal;
}

function toSubscription(row: SubscriptionRow, run: ScheduledRunRow | undefined): SubscriptionDto {
  const scale = scaleOf(row.fraction);
  const ended: SubscriptionStatus[] = ['PROCESSED', 'CANCELLED'];
  return {
    id: row.id,
    name: row.name,
    type: row.period,
    frequency: row.frequency,
    recurringStartDate: row.start_date,
    expirationConfig: {
      type: row.expiration_type,
      amount: row.max_amount === null ? null : amountOf(row.max_amount, scale),
      count: row.max_count,
      expirationDate: row.end_date,
    },
    templateDto: {
      id: row.template_id,
      type: 'TRANSFER',
      name: row.template_name,
      amount: amountOf(row.amount, scale),
      currency: row.code,
      description: row.description,
      payerCoin: row.payer_coin,
      payeeCoin: row.payee_coin,
      reusable: true,
      regular: true,
    },
    subscriptionStatus: row.status,
    nextDueDate: ended.includes(row.status) ? null : row.next_due,
    runs: row.runs,
    paid: amountOf(row.paid, scale),
    lastRun: run
      ? {
          dueDate: run.due_date,
          status: run.status,
          operationId: run.operation_id,
          errorCode: run.error_code,
          errorMessage: run.error_message,
        }
      : null,
    createdAt: row.created_at.toISOString(),
  };
}
