import { Injectable, OnModuleInit } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { holdsPlaced, ledgerOperations } from '../common/metrics';
import { Money } from '../common/money';
import { UnitOfWork } from '../database/unit-of-work';
import { OutboxService } from '../outbox/outbox.service';
import type { OperationDto } from './dto/operation.dto';
import type { ExecuteRequest, Locked, LockedCoin, SystemCoinKind } from './ledger.types';
import { HeldOperation, LedgerRepository } from './ledger.repository';
import { toOperationDto } from './operation.mapper';
import { OPERATION_STATUSES, OPERATION_TYPE_NAMES } from './operation-types';
import { applyPlan, PlanError } from './plan';

/** The organizations on either side of an operation: whose webhooks hear about it. */
function partiesOf(operation: OperationDto): string[] {
  return [operation.sender?.organizationId, operation.recipient?.organizationId].filter((o): o is string => !!o);
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
 * writes it in one statement, inside the open unit of work. The request's actor and
 * Idempotency-Key (TransactionMeta) are stamped on the operation.
 */
@Injectable()
export class LedgerService implements OnModuleInit {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly uow: UnitOfWork,
    private readonly outbox: OutboxService,
  ) {}

  /** The database's CHECKs on operations follow the catalogue in code. */
  async onModuleInit(): Promise<void> {
    await this.uow.run(async () => {
      await this.ledger.syncCheck('operations_type_check', 'type', OPERATION_TYPE_NAMES);
      await this.ledger.syncCheck('operations_status_check', 'status', OPERATION_STATUSES);
    });
  }

  /** Runs a money flow; answers the written operation, or null when the plan wrote nothing. */
  execute(request: ExecuteRequest): Promise<OperationDto | null> {
    return this.post(request, null);
  }

  /**
   * Reverses a processed operation with a new, linked operation whose entries are the original's
   * negated. The original becomes `reversed`; the unique `reversal_of` makes a second reversal
   * impossible even when two race.
   */
  reverse(operationId: string, text: ReversalText): Promise<OperationDto> {
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

  /** Coins as the kernel would lock them, read without a lock: for calculations that move nothing. */
  read(coins: string[]): Promise<ReadonlyMap<string, LockedCoin>> {
    return this.ledger.readCoins(coins);
  }

  /** An operation's coins, payer issuer and details, read without a lock. */
  readOperation(id: string): Promise<HeldOperation | undefined> {
    return this.ledger.readOperation(id);
  }

  /** Finds or creates the system coin of a kind for an issuer. */
  systemCoin(issuerId: string, kind: SystemCoinKind): Promise<string> {
    return this.uow.run(() => this.ledger.systemCoin(issuerId, kind));
  }

  /** Recomputes every balance and held amount from its entries and holds, and every operation's sum, on one snapshot. */
  check(): ReturnType<LedgerRepository['check']> {
    return this.uow.run(() => this.ledger.check(), { isolation: 'REPEATABLE READ' });
  }

  private post(request: ExecuteRequest, reversalOf: string | null): Promise<OperationDto | null> {
    return this.uow.run(async () => {
      const context = this.uow.current()!;
      const locked: Locked = { coins: new Map(), holds: [] };
      if (request.operationId) {
        const operation = await this.ledger.lockOperation(request.operationId);
        if (!operation) throw new ApiError('exception.transaction.not_found', 'No such transaction');
        if (operation.type !== request.type) throw new PlanError(`Operation ${operation.id} is a ${operation.type}, not a ${request.type}`);
        locked.operation = operation;
        locked.holds = await this.ledger.lockOpenHolds(operation.id);
      }
      locked.coins = await this.ledger.lockCoins([...request.coins, ...locked.holds.map((h) => h.coin_serial)]);
      const plan = await request.plan(locked);
      if (!plan) return null;
      const effect = applyPlan(locked, plan);
      const row = await this.ledger.write({
        type: request.type,
        operationId: request.operationId,
        firstLeg: request.operationId ? await this.ledger.legCount(request.operationId) : 0,
        coins: locked.coins,
        meta: plan.meta,
        effect,
        createdBy: context.meta.actorUserId ?? null,
        requestIdentifier: context.meta.requestIdentifier ?? null,
        reversalOf,
      });
      context.operationIds.push(row.id);
      const operation = toOperationDto(row);
      this.uow.afterCommit(() => {
        ledgerOperations.inc({ type: operation.type, status: operation.status });
        if (effect.placements.length) holdsPlaced.inc(effect.placements.length);
      });
      // Webhook events, in this transaction: a reversal says `operation.reversed` (reverse()), a hold placed says nothing yet.
      if (!reversalOf && (operation.status === 'processed' || operation.status === 'declined')) {
        await this.outbox.emit(
          operation.status === 'processed' ? 'operation.processed' : 'operation.declined',
          [...[...locked.coins.values()].map((c) => c.organization_id)],
          operation,
        );
      }
      return operation;
    });
  }
}
