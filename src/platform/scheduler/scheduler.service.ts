import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { PeriodicTask } from '../common/periodic-task';
import { APP_CONFIG, AppConfig } from '../config/config';
import { TransactionMeta, UnitOfWork } from '../database/unit-of-work';
import { CalendarDate, utcToday } from './scheduler.clock';
import { ScheduledRunRow, SchedulerRepository } from './scheduler.repository';

/** What a pass over the due dates did. */
export interface RunCounts {
  /** Due dates whose work was done (a payment made). */
  processed: number;
  /** Due dates whose work was refused (an ApiError: insufficient funds, a coin closed), recorded as failed. */
  failed: number;
}

/** Work a module gives the scheduler: everything of it due on or before a date, each due date through `runOnce`. */
export interface ScheduledJob {
  /** Names the job in run records, idempotency keys and logs (`subscription`). */
  readonly name: string;
  runDue(today: CalendarDate): Promise<RunCounts>;
}

/** One due date of one subject of a job, and on whose behalf its work runs. */
export interface DueRun {
  job: string;
  subject: string;
  dueDate: CalendarDate;
  actor?: { userId: string; role: string; organizationId: string };
}

/** Records the due date's run in the open transaction; false when it is recorded already (another instance ran it). */
export type Claim = () => Promise<boolean>;

/**
 * The kernel's scheduler. Each instance polls every SCHEDULER_POLL_SECONDS and hands the date (UTC) to each registered
 * job; a job runs each due date with `runOnce`, which makes the date run at most once across instances and retries:
 * the run record (`scheduled_runs`, primary key job + subject + due date) is written in the same transaction as the
 * work (a ledger posting among it), so a crash before the commit leaves neither and a second instance finds the first's
 * record, never pays again. The work's operation carries a deterministic key, `<job>:<subject>:<due date>`, as its
 * requestIdentifier.
 */
@Injectable()
export class SchedulerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SchedulerService.name);
  private readonly jobs: ScheduledJob[] = [];
  private readonly poll = new PeriodicTask('The scheduler', () => this.runDue(utcToday()), this.logger);

  constructor(
    private readonly runs: SchedulerRepository,
    private readonly uow: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Modules register their jobs when they start (onModuleInit), before the first poll. */
  register(job: ScheduledJob): void {
    this.jobs.push(job);
  }

  onApplicationBootstrap(): void {
    this.poll.start(this.config.schedulerPollSeconds);
  }

  onModuleDestroy(): Promise<void> {
    return this.poll.stop();
  }

  /** Runs every job's work due on or before `today`, job after job. */
  async runDue(today: CalendarDate): Promise<RunCounts> {
    const total: RunCounts = { processed: 0, failed: 0 };
    for (const job of this.jobs) {
      const counts = await this.uow.asJob(job.name, () => job.runDue(today));
      total.processed += counts.processed;
      total.failed += counts.failed;
      if (counts.processed || counts.failed)
        this.logger.log(`${job.name}: ${counts.processed} run(s) done, ${counts.failed} failed, up to ${today}`);
    }
    return total;
  }

  /** The latest recorded run of each of a job's subjects. */
  latestRuns(job: string, subjects: string[]): Promise<Map<string, ScheduledRunRow>> {
    return this.runs.latest(job, subjects);
  }

  /** The key a due date's work is posted under (the operation's requestIdentifier): the same on every retry. */
  static keyOf(run: Pick<DueRun, 'job' | 'subject' | 'dueDate'>): string {
    return `${run.job}:${run.subject}:${run.dueDate}`;
  }

  /**
   * Runs one due date once. `work` runs in a transaction: it locks its subject, checks the date is still due (else
   * answers undefined: nothing happens), calls `claim`, and does the work, answering its operation's id. When it throws
   * an ApiError, the transaction is rolled back and `failed` runs in a new one: it checks the date is still due, calls
   * `claim` (which then records the failure with the error's code) and moves on. Any other error propagates.
   */
  async runOnce(
    run: DueRun,
    work: (claim: Claim) => Promise<{ operationId: string | null } | undefined>,
    failed: (claim: Claim, error: ApiError) => Promise<boolean>,
  ): Promise<'processed' | 'failed' | 'skipped'> {
    const meta: TransactionMeta = {
      job: run.job,
      requestIdentifier: SchedulerService.keyOf(run),
      actorUserId: run.actor?.userId,
      actorRole: run.actor?.role,
      actorOrganizationId: run.actor?.organizationId,
      staff: false,
    };
    try {
      const done = await this.uow.run(
        async () => {
          let claimed = false;
          const result = await work(async () => (claimed = await this.runs.claim(run.job, run.subject, run.dueDate, {})));
          if (result && !claimed) throw new Error(`The ${run.job} job did work for ${run.subject} on ${run.dueDate} without claiming it`);
          if (result?.operationId) await this.runs.setOperation(run.job, run.subject, run.dueDate, result.operationId);
          return result !== undefined;
        },
        { meta },
      );
      return done ? 'processed' : 'skipped';
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      const recorded = await this.uow.run(
        () =>
          failed(() => this.runs.claim(run.job, run.subject, run.dueDate, { errorCode: error.code, errorMessage: error.message }), error),
        { meta },
      );
      return recorded ? 'failed' : 'skipped';
    }
  }
}
