import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { Money, parseAmount, scaleOf } from '../common/money';
import { calculationOf } from '../commissions/calculation';
import { CommissionsService, Pricing, Quote } from '../commissions/commissions.service';
import type { CalculationDto } from '../commissions/dto/calculation.dto';
import type { GateScope } from '../commissions/limits';
import { commissionDetails } from '../commissions/fee';
import type { OperationDto } from '../ledger/dto/operation.dto';
import type { FlowRecord, Leg, LockedCoin } from '../ledger/ledger.types';
import { LedgerService } from '../ledger/ledger.service';

/** The flows that hold money on a request and move it on a decision. */
export type HeldFlow = 'bank_withdrawal' | 'cash_in' | 'cash_out' | 'gate_payment';

/** A movement from a payer coin to a payee coin, priced by the flow's commission rule. */
export interface Movement {
  type: HeldFlow;
  /** The coin whose funds are held (a request) or debited (a direct movement). */
  payer: string;
  /** The coin credited when the movement completes. */
  payee: string;
  /** The coins whose organization's contract prices the flow, first client coin first (see CommissionsService.pricing). */
  priceBy: [string | null, string | null];
  /** The amount as the request sent it; its decimals are checked against the payer coin's currency. */
  amount: unknown;
  /** The flow's own rules on the payer and the payee as locked or read (ownership, kinds, usability); throws to refuse. */
  check(payer: LockedCoin, payee: LockedCoin): void;
  description?: string | null;
  customInformation?: string | null;
  details?: Record<string, unknown>;
  /** Terms priced elsewhere (a gate's own commission rules); else the flow's commission rule in force. */
  pricing?: Pricing;
  /** A gate's REDEEM: the limits of its gate commission profile apply too. */
  gate?: GateScope;
  /**
   * `hold` only: the hold is its caller's one write, after reads only (ExecuteRequest.grouped), with the flow's own rows
   * written with it (Plan.records).
   */
  grouped?: boolean;
  records?: FlowRecord[];
}

/** What a held operation keeps in its details, so its settlement moves exactly what was quoted and held. */
interface HeldTerms {
  payeeAmount: string;
  commission: string;
  /** The coin the fee goes to when it is not the issuer's commission coin (a gate provider collecting its own fee). */
  collector?: string;
}

/** A decision on a held operation: accepted (captured and moved) or declined (released). */
export type Decision =
  | { accept: true; requestStatus?: string }
  /** `error`: refused outside the service (a provider), rather than `declined` by the operator. */
  | { accept: false; requestStatus?: string; status?: 'declined' | 'error' };

/**
 * Money that waits for a decision, shared by bank withdrawals and cash desk operations. A request
 * is one `pending` operation holding what the payer will pay (the amount plus a sender's fee, as
 * quoted then); accepting settles that same operation in place — the payee's share and the fee
 * leave the payer, and the hold is captured — and declining releases the hold. Prices come from
 * the commission service, money moves only through the ledger kernel.
 */
@Injectable()
export class PendingOperationsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly commissions: CommissionsService,
  ) {}

  /** The price of a movement without moving money, on coins read without a lock. */
  async calculate(movement: Movement, tool: { srcValue: string | null; destValue: string | null }): Promise<CalculationDto> {
    const coins = await this.ledger.read([movement.payer, movement.payee]);
    const payer = coins.get(movement.payer);
    const payee = coins.get(movement.payee);
    if (!payer || !payee) throw new ApiError('exception.coin.not_found', `No coin ${payer ? movement.payee : movement.payer}`);
    movement.check(payer, payee);
    const amount = parseAmount(movement.amount, scaleOf(payer.fraction));
    const quote = await this.commissions.quote({ flow: movement.type, amount, payer, payee });
    return calculationOf(amount, quote, payer, { type: 'COIN', ...tool });
  }

  /** Holds what the payer will pay: a `pending` operation whose hold the decision captures or releases. */
  async hold(movement: Movement): Promise<OperationDto> {
    const pricing = movement.pricing ?? (await this.commissions.pricing(movement.type, ...movement.priceBy));
    // Only the payer is locked: its funds are held. The payee (a bank-settlement coin many requests
    // share) is read, and locked when the decision moves money to it.
    const payee = (await this.ledger.read([movement.payee])).get(movement.payee);
    const posted = await this.ledger.execute({
      type: movement.type,
      coins: [movement.payer],
      grouped: movement.grouped,
      plan: async (locked) => {
        const payer = locked.coins.get(movement.payer);
        if (!payer || !payee) throw new ApiError('exception.coin.not_found', `No coin ${payer ? movement.payee : movement.payer}`);
        movement.check(payer, payee);
        const amount = parseAmount(movement.amount, scaleOf(payer.fraction));
        const quote = await this.commissions.quote({ flow: movement.type, amount, payer, payee, pricing, gate: movement.gate });
        const terms: HeldTerms = {
          payeeAmount: quote.payeeAmount.toFixed(),
          commission: quote.commission.toFixed(),
          ...(movement.pricing?.collector ? { collector: movement.pricing.collector } : {}),
        };
        return {
          legs: [],
          holds: [{ place: { coin: payer.serial, amount: quote.payerAmount } }],
          meta: this.meta(movement, amount, quote, { held: terms }),
          records: movement.records,
        };
      },
    });
    return posted!;
  }

  /** Moves the money at once (a direct movement by staff): the payee's share and the fee leave the payer. */
  async move(movement: Movement): Promise<OperationDto> {
    const pricing = await this.commissions.pricing(movement.type, ...movement.priceBy);
    const posted = await this.ledger.execute({
      type: movement.type,
      coins: [movement.payer, movement.payee, ...this.commissions.collectors(pricing)],
      plan: async (locked) => {
        const payer = locked.coins.get(movement.payer);
        const payee = locked.coins.get(movement.payee);
        if (!payer || !payee) throw new ApiError('exception.coin.not_found', `No coin ${payer ? movement.payee : movement.payer}`);
        movement.check(payer, payee);
        const amount = parseAmount(movement.amount, scaleOf(payer.fraction));
        const quote = await this.commissions.quote({ flow: movement.type, amount, payer, payee, pricing });
        return { legs: this.commissions.legs(quote, payer.serial, payee.serial, pricing), meta: this.meta(movement, amount, quote) };
      },
    });
    return posted!;
  }

  /**
   * Decides a held operation in place. Accepting moves what was quoted when it was held (the
   * payee's share to `payee`, the fee to the issuer's commission coin) and captures the hold;
   * declining releases it. An operation that is no longer pending is `decided` (the caller's 409).
   */
  async settle(
    operationId: string,
    type: HeldFlow,
    decision: Decision,
    decided: () => ApiError,
    usable: (payee: LockedCoin) => void = () => undefined,
  ): Promise<OperationDto> {
    const held = await this.ledger.readOperation(operationId);
    const terms = held?.details.held as HeldTerms | undefined;
    if (!held || !terms || !held.to_coin) throw decided();
    const payee = held.to_coin;
    const commission = new Money(terms.commission);
    const collector =
      decision.accept && commission.gt(0) ? (terms.collector ?? (await this.ledger.systemCoin(held.issuer_id!, 'commission'))) : null;
    const posted = await this.ledger.execute({
      type,
      operationId,
      coins: decision.accept ? [payee, ...(collector ? [collector] : [])] : [],
      plan: (locked) => {
        const operation = locked.operation!;
        if (operation.status !== 'pending') throw decided();
        const payer = operation.from_coin!;
        if (!decision.accept) {
          return {
            legs: [],
            holds: locked.holds.map((h) => ({ release: h.id })),
            status: decision.status ?? 'declined',
            meta: { amount: new Money(operation.amount), requestStatus: decision.requestStatus ?? 'declined' },
          };
        }
        usable(locked.coins.get(payee)!);
        const legs: Leg[] = [{ from: payer, to: payee, amount: new Money(terms.payeeAmount) }];
        if (collector) legs.push({ from: payer, to: collector, amount: commission });
        return {
          legs,
          holds: locked.holds.map((h) => ({ capture: h.id })),
          status: 'processed',
          meta: { amount: new Money(operation.amount), requestStatus: decision.requestStatus ?? 'accepted' },
        };
      },
    });
    return posted!;
  }

  private meta(movement: Movement, amount: Money, quote: Quote, extra: Record<string, unknown> = {}) {
    return {
      amount,
      commission: quote.commission,
      fromCoin: movement.payer,
      toCoin: movement.payee,
      description: movement.description ?? null,
      customInformation: movement.customInformation ?? null,
      details: { ...(movement.details ?? {}), ...(commissionDetails(quote) ?? {}), ...extra },
    };
  }
}
