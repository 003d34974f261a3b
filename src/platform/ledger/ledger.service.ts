import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../common/api-error';
import { Batcher, Outcome } from '../common/batcher';
import { holdsPlaced, ledgerGroupSize, ledgerOperations, ledgerPostedAlone } from '../common/metrics';
import { Money } from '../common/money';
import { isDatabaseError } from '../common/error-mapping';
import { APP_CONFIG, AppConfig } from '../config/config';
import { contextPart, runWithPart } from '../database/async-context';
import { timedDb } from '../database/request-timing';
import { CommitUnknown, TransactionMeta, UnitOfWork } from '../database/unit-of-work';
import { AnswerAlone, GroupedAnswer } from '../database/grouped-answer';
import { IdempotencyRepository } from '../idempotency/idempotency.repository';
import { OutboxService } from '../outbox/outbox.service';
import type { UserAction } from '../user-actions/user-action.types';
import { UserActionsService } from '../user-actions/user-actions.service';
import type { OperationDto } from './dto/operation.dto';
import type { ExecuteRequest, FlowRecord, Locked, LockedCoin, RecordWriter, SystemCoinKind } from './ledger.types';
import { HeldOperation, isShared, LedgerRepository, Posting, SharedChange, writableTogether } from './ledger.repository';
import type { OperationRow } from './operation.projection';
import { toOperationDto } from './operation.mapper';
import { OPERATION_STATUSES, OPERATION_TYPE_NAMES, OperationStatus } from './operation-types';
import { applyPlan, PlanEffect, PlanError } from './plan';

/** The organizations on either side of an operation: whose webhooks hear about it. */
function partiesOf(operation: OperationDto): string[] {
  return [operation.sender?.organizationId, operation.recipient?.organizationId].filter((o): o is string => !!o);
}

/** A grouped posting waiting for its group, with what its request says about itself. */
interface GroupedPosting {
  request: ExecuteRequest;
  meta: TransactionMeta;
}

/** A plan checked against the locked rows, ready to be written. */
interface Planned {
  request: ExecuteRequest;
  locked: Locked;
  plan: NonNullable<Awaited<ReturnType<ExecuteRequest['plan']>>>;
  effect: PlanEffect;
  /** The rows to write with the operation: the flow's own (Plan.records), then those its plan's checks answered. */
  records: FlowRecord[];
}

/** A group's answer for a posting it did not write: the posting is to be posted on its own. */
const ALONE = Symbol('alone');

/** Postings in one group at most (each group being written holds a pool connection: LEDGER_GROUPS_IN_FLIGHT). */
const GROUP_SIZE = 64;
/** How long a group waits for its keyed requests' answers (built in their own event-loop turns) before it gives up. */
const ANSWER_TIMEOUT_MS = 5_000;

/**
 * Work a plan's rules leave for once the plan is known to hold: run in its transaction, before it is written. What it
 * answers are rows of its own to write with the operation, as a plan's `records` are (the limits' record of what the
 * operation counted): the operation's id is not known before it is written, in a group least of all.
 */
export type PlanCheck = () => Promise<void | readonly FlowRecord[]>;

/**
 * Told, in the transaction that undoes them, of operations whose money no longer moves: a pending one settled in place
 * into `declined` or `error`, a processed one reversed, or one whose money a posting returns (ExecuteRequest.undoes).
 */
export type UndoneListener = (operationIds: readonly string[]) => Promise<void>;

/** The statuses of an operation that moves (or holds) money; leaving them for another undoes it. */
const MOVING: readonly OperationStatus[] = ['new', 'pending', 'processed'];

/**
 * The operations a written posting undoes: the one it settles in place out of a moving status (declined, or failed
 * outside the service), the one it reverses, the one whose money it returns (ExecuteRequest.undoes).
 */
function undoneBy({ request, locked, effect }: Pick<Planned, 'request' | 'locked' | 'effect'>, reversalOf: string | null): string[] {
  const settled = locked.operation;
  return [
    ...(settled && MOVING.includes(settled.status) && !MOVING.includes(effect.status) ? [settled.id] : []),
    ...(reversalOf ? [reversalOf] : []),
    ...(request.undoes ? [request.undoes] : []),
  ];
}

/**
 * Adds a posting's change of a shared coin to its group's (SharedChange): when the posting's plan says the coin is
 * `funded` and draws on it, the group's lowest point for it so far.
 */
function sharedChange(shared: Map<string, SharedChange>, change: PlanEffect['changes'][number], funded: boolean): void {
  const sum = shared.get(change.serial) ?? { serial: change.serial, balance: ZERO, held: ZERO, lowest: null };
  sum.balance = sum.balance.plus(change.balance);
  sum.held = sum.held.plus(change.held);
  const available = sum.balance.minus(sum.held);
  if (funded && change.balance.minus(change.held).isNegative() && (!sum.lowest || available.lt(sum.lowest))) sum.lowest = available;
  shared.set(change.serial, sum);
}

const ZERO = new Money(0);

/** A posting's operation as written, and what its request said about itself. */
interface Written {
  operation: OperationDto;
  meta: TransactionMeta;
  planned: Planned;
}

/** Free text a reversal may carry. */
export interface ReversalText {
  description?: string | null;
  customInformation?: string | null;
}

/**
 * The ledger kernel: the only way money moves. A flow names the coins it needs and gives its
 * rules as a function of the locked rows; the kernel locks (coins in serial order, after the
 * settled operation and its holds), runs the rules, checks the plan they return (plan.ts) and
 * writes it in one statement, inside the open unit of work. The request's actor, its role and
 * Idempotency-Key (TransactionMeta) are stamped on the operation; an operation posted for a member of
 * staff is recorded in the action log (`money_moved`) in the same transaction, whatever the flow. So is
 * the undoing of an operation told to the kernel's listeners (onUndone: the limits give back what it
 * counted), whichever flow declines, fails, returns or reverses it.
 */
@Injectable()
export class LedgerService implements OnModuleInit {
  /** System coins' serials by issuer and kind (systemCoin). */
  private readonly systemCoins = new Map<string, string>();

  /**
   * The serials of the shared coins (system coins: `isShared`) seen so far, which a group does not claim (Batcher): a
   * group locks them only at its end, so groups in flight at once may share them. Never many: a few per issuer.
   */
  private readonly shared = new Set<string>();

  /** The checks registered (whenPlanned) by the plan running in this async context. */
  private readonly plans = {
    getStore: (): PlanCheck[] | undefined => contextPart('planChecks') as PlanCheck[] | undefined,
    run: <T>(checks: PlanCheck[], work: () => T): T => runWithPart('planChecks', checks, work),
  };

  private readonly groups: Batcher<GroupedPosting, OperationDto | null | typeof ALONE>;

  private readonly undoneListeners: UndoneListener[] = [];

  constructor(
    private readonly ledger: LedgerRepository,
    private readonly uow: UnitOfWork,
    private readonly outbox: OutboxService,
    private readonly actions: UserActionsService,
    private readonly keys: IdempotencyRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    // A transaction that wrote operations and lost its COMMIT's answer is found committed, or not, by its operations.
    uow.onCommitUnknown((lost) => this.ledger.committed(lost.operationIds));
    // Groups in flight at once never share a coin but a shared one: a posting over a coin a running group holds waits for the next.
    this.groups = new Batcher((postings) => this.postGroup(postings), {
      size: GROUP_SIZE,
      inFlight: config.ledgerGroupsInFlight,
      claims: ({ request }) => (this.shared.size ? request.coins.filter((s) => !this.shared.has(s)) : request.coins),
    });
  }

  /** The database's CHECKs on operations follow the catalogue in code. */
  async onModuleInit(): Promise<void> {
    await this.uow.run(async () => {
      await this.ledger.syncCheck('operations_type_check', 'type', OPERATION_TYPE_NAMES);
      await this.ledger.syncCheck('operations_status_check', 'status', OPERATION_STATUSES);
    });
  }

  /**
   * Runs a money flow; answers the written operation, or null when the plan wrote nothing. A grouped request
   * (ExecuteRequest.grouped) with no transaction open is written with the others of its group (postGroup; the
   * wait is its database time), or on its own when the group could not take it.
   */
  async execute(request: ExecuteRequest): Promise<OperationDto | null> {
    this.mustBeIdempotent(request.type);
    if (request.grouped && !request.operationId && !this.uow.current()) {
      const meta = this.uow.meta();
      const keyed = meta.answer as GroupedAnswer<OperationDto | null> | undefined;
      if (keyed?.joined) throw new AnswerAlone('it posts twice');
      // A keyed posting is handed its operation before its group commits (GroupedAnswer), so its answer commits with it.
      const submitted = this.groups.submit({ request, meta });
      const answer = await timedDb(() => (keyed ? Promise.race([keyed.written, submitted]) : submitted));
      if (answer !== ALONE) return answer;
      if (keyed) throw new AnswerAlone('its group could not take its posting');
    }
    return this.post(request, null);
  }

  /**
   * Reverses a processed operation with a new, linked operation whose entries are the original's
   * negated. The original becomes `reversed`; the unique `reversal_of` makes a second reversal
   * impossible even when two race.
   */
  reverse(operationId: string, text: ReversalText): Promise<OperationDto> {
    this.mustBeIdempotent('reversal');
    return this.uow.run(async () => {
      const original = await this.ledger.lockOperation(operationId);
      if (!original) throw new ApiError('exception.transaction.not_found', 'No such transaction');
      if (original.reversal_of) throw new ApiError('exception.transaction.is_reversal', 'A reversal cannot be reversed');
      if (original.status === 'reversed') throw new ApiError('exception.transaction.already_reversed', 'The operation is already reversed');
      if (original.status !== 'processed') {
        throw new ApiError('exception.transaction.not_processed', 'Only a processed operation can be reversed');
      }
      const legs = await this.ledger.legsOf(operationId);
      const reversal = await this.post(
        {
          type: 'reversal',
          coins: legs.flatMap((l) => [l.from, l.to]),
          plan: (locked) => {
            for (const coin of locked.coins.values()) {
              if (coin.type === 'client' && coin.closed_at) throw new ApiError('exception.coin.closed', `Coin ${coin.serial} is closed`);
            }
            return {
              legs: legs.map((l) => ({ from: l.to, to: l.from, amount: new Money(l.amount) })),
              meta: {
                amount: new Money(original.amount),
                currencyId: original.currency_id,
                fromCoin: original.to_coin,
                toCoin: original.from_coin,
                description: text.description ?? `Reversal of ${original.type} ${original.id}`,
                customInformation: text.customInformation ?? null,
              },
            };
          },
        },
        original.id,
      );
      await this.outbox.emit('operation.reversed', partiesOf(reversal!), { operationId: original.id, reversal });
      return reversal!;
    });
  }

  /**
   * Called from a plan's rules (the kernel's own, such as the commission service's limits): `check` runs once the
   * plan has been checked (funds, holds…), before it is written, in its transaction — so what it counts is counted
   * only for a posting that is written, even in a group of postings sharing one transaction; the rows it answers are
   * written after the operation, with its id (PlanCheck). Answers false, and registers nothing, outside a plan (a
   * calculation).
   */
  whenPlanned(check: PlanCheck): boolean {
    const checks = this.plans.getStore();
    if (!checks) return false;
    checks.push(check);
    return true;
  }

  /** Whether the caller runs inside a plan: a posting, not a calculation. */
  planning(): boolean {
    return this.plans.getStore() !== undefined;
  }

  /**
   * Registers work for whenever operations are undone (UndoneListener): the kernel's own (the limits give back what an
   * operation counted), so that no flow that declines, refuses, fails, returns or reverses money can forget it.
   */
  onUndone(listener: UndoneListener): void {
    this.undoneListeners.push(listener);
  }

  /** Grouped postings waiting for a group (behind the groups being written). */
  waiting(): number {
    return this.groups.waiting;
  }

  /** Coins as the kernel would lock them, read without a lock: for calculations that move nothing. */
  read(coins: string[]): Promise<ReadonlyMap<string, LockedCoin>> {
    return this.ledger.readCoins(coins);
  }

  /** An operation's coins, payer issuer and details, read without a lock. */
  readOperation(id: string): Promise<HeldOperation | undefined> {
    return this.ledger.readOperation(id);
  }

  /**
   * Finds or creates the system coin of a kind for an issuer. A system coin is never closed or replaced, so its serial is
   * kept per instance once committed: pricing a transfer with a fee, or an exchange, then opens no transaction for it
   * (which a keyed request in a group may not: see GroupedAnswer).
   */
  async systemCoin(issuerId: string, kind: SystemCoinKind): Promise<string> {
    const slot = `${issuerId}/${kind}`;
    const known = this.systemCoins.get(slot);
    if (known) return known;
    const serial = await this.uow.run(() => this.ledger.systemCoin(issuerId, kind));
    this.uow.afterCommit(() => {
      this.systemCoins.set(slot, serial);
      this.shared.add(serial);
    });
    return serial;
  }

  /** Recomputes every balance and held amount from its entries and holds, and every operation's sum, on one snapshot. */
  check(): ReturnType<LedgerRepository['check']> {
    return this.uow.run(() => this.ledger.check(), { isolation: 'REPEATABLE READ' });
  }

  /**
   * The rule of routes that move money: they are an `idempotent` @Route (a retry then takes effect once, and the posting
   * is one unit of work with the route's other writes); the service's own work (sweeps, provider outcomes) says so
   * with `asJob`. Enforced with NODE_ENV=test, so a route that forgets the decorator fails its tests with a 500 that
   * names the rule; never in production, where a coding mistake would cost a customer's request.
   */
  private mustBeIdempotent(type: string): void {
    if (!this.config.requireIdempotentPostings) return;
    const meta = this.uow.meta();
    if (meta.idempotent || meta.job) return;
    throw new Error(
      `The ledger refuses to post a ${type} outside an @Idempotent() request or a job (asJob)${meta.requestId ? `: request ${meta.requestId}` : ''}`,
    );
  }

  /** Locks what the request names, runs its plan and writes it, in the open unit of work (or a new one). */
  private post(request: ExecuteRequest, reversalOf: string | null): Promise<OperationDto | null> {
    return this.uow.run(async () => {
      const locked: Locked = { coins: new Map(), holds: [] };
      if (request.operationId) {
        const operation = await this.ledger.lockOperation(request.operationId);
        if (!operation) throw new ApiError('exception.transaction.not_found', 'No such transaction');
        if (operation.type !== request.type) throw new PlanError(`Operation ${operation.id} is a ${operation.type}, not a ${request.type}`);
        locked.operation = operation;
        locked.holds = await this.ledger.lockOpenHolds(operation.id);
      }
      locked.coins = await this.ledger.lockCoins([...request.coins, ...locked.holds.map((h) => h.coin_serial)]);
      const planned = await this.planned(request, locked);
      return planned && this.write(planned, this.uow.current()!.meta, reversalOf);
    });
  }

  /**
   * Group commit: grouped postings that arrived together, written in one transaction. The union of their coins
   * is locked once (in serial order, skipping coins another transaction holds: the postings over those are
   * answered ALONE, to be posted on their own, so the group never waits and never holds up the next one), but for
   * the shared ones (system coins: an exchange's reserves, a fee's commission coin), which every posting of their
   * kind names: those are read as last committed and locked only at the end, in serial order, with the statement
   * that writes their balances, sent with the COMMIT (LedgerRepository.writeShared) — so another group may run
   * meanwhile over them, and a group holds them for the time of its COMMIT only. A coin a plan said is `funded`
   * must still have the funds the plan counted on as it is then, else the group fails (and is posted one by one). Each
   * plan then runs, in arrival order, over its own coins as the postings before it left them, so each answer is
   * exactly its own effect, as if it had been posted alone after them. A plan that refuses (insufficient funds, a
   * closed coin…) fails its own posting and writes nothing. The postings that only move money are written by one
   * statement (LedgerRepository.writeTogether), others one by one; the flows' own rows (Plan.records) by one
   * statement per writer. A failed statement aborts the transaction: every posting of the group is then answered
   * ALONE, so a failing posting never fails its neighbours.
   *
   * A keyed posting (its request's GroupedAnswer) joins only if its key is free — locked by this transaction, no
   * answer stored — else it is answered ALONE (its request then runs as a unit of work, which replays or answers 409).
   * Once written it is handed its operation; the group stores the answers its requests give back, in one statement,
   * then commits and tells them. Not retried: its requests were handed operations of this attempt.
   */
  private async postGroup(postings: GroupedPosting[]): Promise<Outcome<OperationDto | null | typeof ALONE>[]> {
    ledgerGroupSize.observe(postings.length);
    const joined: GroupedAnswer<OperationDto | null>[] = [];
    try {
      const outcomes = await this.uow.run(
        async () => {
          const keyed = postings.map((p) => p.meta.answer as GroupedAnswer<OperationDto | null> | undefined);
          // Sent together (the connection pipelines), locked in this order: the coins, then the keys.
          const [coins, free] = await Promise.all([
            this.ledger.lockGroupCoins(postings.flatMap((p) => p.request.coins)),
            this.keysFree(keyed),
          ]);
          for (const coin of coins.values()) if (isShared(coin)) this.shared.add(coin.serial);
          // What the group does to its shared coins, in the order of its postings: written last (writeShared).
          const shared = new Map<string, SharedChange>();
          const outcomes: Outcome<OperationDto | null | typeof ALONE>[] = [];
          const together: { index: number; planned: Planned; posting: Posting; meta: TransactionMeta }[] = [];
          const written: (Written & { index: number })[] = [];
          // What the group's postings so far did to each coin: applied to its row only once a later posting names it.
          const moved = new Map<string, { balance: Money; held: Money }>();
          const asLeft = (serial: string): LockedCoin => {
            const coin = coins.get(serial)!;
            const change = moved.get(serial);
            if (!change) return coin;
            moved.delete(serial);
            // Object.assign, not `{ ...coin, balance }`: V8 copies an object spread followed by more keys through a slow
            // path, and a merchant's coin is named again by most payments of a group.
            const left: LockedCoin = Object.assign({}, coin, {
              balance: new Money(coin.balance).plus(change.balance).toFixed(),
              held: change.held.isZero() ? coin.held : new Money(coin.held).plus(change.held).toFixed(),
            });
            coins.set(serial, left);
            return left;
          };
          for (const [index, { request, meta }] of postings.entries()) {
            // A coin held elsewhere, or no such coin: the posting waits for it, or answers its 404, on its own. A key
            // held or answered elsewhere: its request replays, or answers 409, on its own.
            if (!request.coins.every((s) => coins.has(s)) || !free[index]) {
              outcomes.push({ ok: true, value: ALONE });
              continue;
            }
            const locked: Locked = { coins: new Map(request.coins.map((s) => [s, asLeft(s)])), holds: [] };
            let planned: Planned | null;
            try {
              planned = await this.planned(request, locked);
            } catch (error) {
              // A statement of the plan failed: the transaction is lost, for every posting of the group. (Should a plan
              // catch such a failure, the next statement or the COMMIT fails instead: UnitOfWork checks the COMMIT.)
              if (isDatabaseError(error)) throw error;
              outcomes.push({ ok: false, error });
              continue;
            }
            if (!planned) {
              outcomes.push({ ok: true, value: null });
              continue;
            }
            for (const change of planned.effect.changes) {
              const before = moved.get(change.serial);
              moved.set(
                change.serial,
                before ? { balance: before.balance.plus(change.balance), held: before.held.plus(change.held) } : change,
              );
              if (isShared(coins.get(change.serial)!)) sharedChange(shared, change, planned.plan.funded?.includes(change.serial) ?? false);
            }
            // A group's postings are new operations (ExecuteRequest.grouped): their legs are numbered from 0.
            const posting = this.postingOf(planned, meta, null, 0);
            if (writableTogether(posting)) {
              outcomes.push({ ok: true, value: null });
              together.push({ index, planned, posting, meta });
            } else {
              const { operation, emitted } = this.recorded(await this.ledger.write(posting, { deferShared: true }), planned, null);
              if (emitted) await emitted;
              outcomes.push({ ok: true, value: operation });
              written.push({ index, operation, meta, planned });
            }
          }
          // The flows' rows name their operations by the ids made here: sent right behind the postings' statement, in
          // the same write, not after its answer (the connection pipelines; a failure of either fails the group).
          const writable = together.map(({ posting }) => posting);
          const ids = writable.map(() => randomUUID());
          const flowRows = [
            ...written.map(({ operation, planned }) => ({ operationId: operation.id, planned })),
            ...together.map(({ planned }, i) => ({ operationId: ids[i], planned })),
          ];
          const [rows] = await this.uow.sendTogether(() =>
            Promise.all([together.length ? this.ledger.writeTogether(writable, ids) : [], this.writeRecords(flowRows)]),
          );
          for (const [i, { index, planned, meta }] of together.entries()) {
            const { operation, emitted } = this.recorded(rows[i], planned, null);
            if (emitted) await emitted;
            outcomes[index] = { ok: true, value: operation };
            written.push({ index, operation, meta, planned });
          }
          await this.undo(written.flatMap(({ planned }) => undoneBy(planned, null)));
          await this.recordStaff(written);
          await this.storeAnswers(
            keyed.flatMap((answer, index) => {
              const outcome = outcomes[index];
              return answer && outcome.ok && outcome.value !== ALONE ? [{ answer, operation: outcome.value }] : [];
            }),
            joined,
          );
          // Last, sent with the COMMIT: the shared coins locked and written, so a group holds them for the least time.
          if (shared.size) this.uow.sendWithCommit(() => Promise.all(this.ledger.writeShared([...shared.values()])));
          return outcomes;
        },
        { once: true },
      );
      for (const answer of joined) answer.commit();
      const alone = outcomes.filter((o) => o.ok && o.value === ALONE).length;
      if (alone) ledgerPostedAlone.inc({ reason: 'locked' }, alone);
      return outcomes;
    } catch (error) {
      // Whether the group committed is not known (its COMMIT's answer was lost, and the database cannot tell yet): none
      // of its postings is written again; each request answers 503, a keyed one's retry then replays or writes it.
      if (error instanceof CommitUnknown) {
        for (const answer of joined) answer.abort(error);
        return postings.map(() => ({ ok: false, error }));
      }
      for (const answer of joined) answer.abort();
      ledgerPostedAlone.inc({ reason: 'split' }, postings.length);
      return postings.map(() => ({ ok: true, value: ALONE }));
    }
  }

  /** Per posting of a group: whether it may be written there — unkeyed, or its key free (IdempotencyRepository.lockFree). */
  private async keysFree(keyed: (Pick<GroupedAnswer, 'userId' | 'key'> | undefined)[]): Promise<boolean[]> {
    const asked = keyed.flatMap((a, index) => (a ? [{ index, userId: a.userId, key: a.key }] : []));
    const free = keyed.map(() => true);
    if (!asked.length) return free;
    // The same key twice in one group (two instances' retries cannot meet here; one instance waits in its interceptor):
    // the later one is answered on its own, after this group.
    const seen = new Set<string>();
    const answers = await this.keys.lockFree(asked);
    for (const [i, { index, userId, key }] of asked.entries()) {
      const slot = `${userId}\n${key}`;
      free[index] = answers[i] && !seen.has(slot);
      seen.add(slot);
    }
    return free;
  }

  /**
   * Hands each keyed posting of a group its operation, waits for the answers its requests build from it (their
   * statements meanwhile run on the group's connection, in its transaction), and stores them in the group's
   * transaction (one statement). A request that fails instead, or no answer in time, fails the
   * group (every posting then posted on its own).
   */
  private async storeAnswers(
    keyed: { answer: GroupedAnswer<OperationDto | null>; operation: OperationDto | null }[],
    joined: GroupedAnswer<OperationDto | null>[],
  ): Promise<void> {
    if (!keyed.length) return;
    const connection = this.uow.current()!.client;
    for (const { answer, operation } of keyed) {
      answer.join(operation, operation?.id ?? null, connection);
      joined.push(answer);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`No answer within ${ANSWER_TIMEOUT_MS} ms from a keyed request of a group`)),
        ANSWER_TIMEOUT_MS,
      );
    });
    try {
      const given = await Promise.race([Promise.all(keyed.map(({ answer }) => answer.answer)), late]);
      // One statement, sent with the group's COMMIT (nothing reads its result; its failure fails the group).
      this.uow.sendWithCommit(() =>
        this.keys.storeAll(
          keyed.map(({ answer }, i) => ({
            userId: answer.userId,
            key: answer.key,
            requestHash: answer.hash,
            status: given[i].status,
            body: given[i].body,
            operationId: answer.operationId,
          })),
        ),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Writes the rows of postings (Planned.records), each with its operation's id: one call, so one statement, per writer.
   * The first writer's statement is sent before this returns (Database.query sends at once).
   */
  private async writeRecords(written: { operationId: string; planned: Planned }[]): Promise<void> {
    const byWriter = new Map<RecordWriter<unknown>, { row: unknown; operationId: string }[]>();
    for (const { operationId, planned } of written) {
      for (const { writer, row } of planned.records) {
        const rows = byWriter.get(writer) ?? [];
        rows.push({ row, operationId });
        byWriter.set(writer, rows);
      }
    }
    for (const [writer, rows] of byWriter) await writer.write(rows);
  }

  /** Runs the request's plan over the locked rows and checks it; null when the plan writes nothing. */
  private async planned(request: ExecuteRequest, locked: Locked): Promise<Planned | null> {
    const checks: PlanCheck[] = [];
    const plan = await this.plans.run(checks, () => request.plan(locked));
    if (!plan) return null;
    const effect = applyPlan(locked, plan);
    const records = [...(plan.records ?? [])];
    for (const check of checks) records.push(...((await check()) ?? []));
    return { request, locked, plan, effect, records };
  }

  /** Tells the listeners (onUndone) of operations undone, in the open transaction. */
  private async undo(operationIds: string[]): Promise<void> {
    if (!operationIds.length) return;
    for (const listener of this.undoneListeners) await listener(operationIds);
  }

  /** Writes a checked plan in the open transaction, stamped with its request's actor and Idempotency-Key. */
  private async write(planned: Planned, meta: TransactionMeta, reversalOf: string | null): Promise<OperationDto> {
    const settled = planned.request.operationId;
    const posting = this.postingOf(planned, meta, reversalOf, settled ? await this.ledger.legCount(settled) : 0);
    const { operation, emitted } = this.recorded(await this.ledger.write(posting), planned, reversalOf);
    if (emitted) await emitted;
    await this.writeRecords([{ operationId: operation.id, planned }]);
    await this.undo(undoneBy(planned, reversalOf));
    await this.recordStaff([{ operation, meta }]);
    return operation;
  }

  /**
   * Records, in the open transaction and in one statement, each operation posted for a member of staff as a
   * `money_moved` user action: who (the user, the role and organization they acted as), what (the operation, its
   * type, status, amount and currency) and which request. In the kernel, so no flow can forget it; a customer's
   * posting (most of a group) records nothing.
   */
  private async recordStaff(written: Pick<Written, 'operation' | 'meta'>[]): Promise<void> {
    const moved: UserAction[] = written
      .filter(({ meta }) => meta.staff && meta.actorUserId && !meta.job)
      .map(({ operation, meta }) => ({
        userId: meta.actorUserId!,
        action: 'money_moved',
        details: {
          operationId: operation.id,
          operationType: operation.type,
          operationStatus: operation.status,
          amount: String(operation.amount),
          currency: operation.currency,
          actorRole: meta.actorRole ?? null,
          actorOrganizationId: meta.actorOrganizationId ?? null,
          requestId: meta.requestId ?? null,
          idempotencyKey: meta.requestIdentifier ?? null,
          ...(operation.reversalOf ? { reversalOf: operation.reversalOf } : {}),
        },
      }));
    if (moved.length) await this.actions.record(...moved);
  }

  /**
   * What the kernel writes for a checked plan, stamped with its request's actor and Idempotency-Key: `firstLeg`, the
   * number of its first leg, is the count of the legs a settled operation already has (0 for a new one).
   */
  private postingOf(
    { request, locked, plan, effect }: Planned,
    meta: TransactionMeta,
    reversalOf: string | null,
    firstLeg: number,
  ): Posting {
    return {
      type: request.type,
      operationId: request.operationId,
      firstLeg,
      coins: locked.coins,
      meta: plan.meta,
      effect,
      createdBy: meta.actorUserId ?? null,
      createdByRole: meta.actorUserId ? (meta.actorRole ?? null) : null,
      requestIdentifier: meta.requestIdentifier ?? null,
      reversalOf,
    };
  }

  /**
   * What follows a written operation in its transaction: its metrics once committed, and its webhook event. Answers the
   * operation, and what the event's handlers still do in the transaction (`emitted`, to wait for before going on; none
   * when no webhook and no handler had work: most postings, which then make no promise here).
   */
  private recorded(
    row: OperationRow,
    { locked, effect }: Planned,
    reversalOf: string | null,
  ): { operation: OperationDto; emitted?: Promise<unknown> } {
    this.uow.current()!.operationIds.push(row.id);
    const operation = toOperationDto(row);
    this.uow.afterCommit(() => {
      ledgerOperations.inc({ type: operation.type, status: operation.status });
      if (effect.placements.length) holdsPlaced.inc(effect.placements.length);
    });
    // Webhook events, in this transaction: a reversal says `operation.reversed` (reverse()), a hold placed says nothing yet.
    if (!reversalOf && (operation.status === 'processed' || operation.status === 'declined')) {
      const emitted = this.outbox.emit(
        operation.status === 'processed' ? 'operation.processed' : 'operation.declined',
        [...locked.coins.values()].map((c) => c.organization_id),
        operation,
      );
      // Nothing to wait for when no webhook and no handler had work (OutboxService.emit): most postings.
      if (emitted) return { operation, emitted };
    }
    return { operation };
  }
}
