import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { amountOf } from '../common/json-decimal';
import { Money, parseAmount, scaleOf } from '../common/money';
import type { Leg, LockedCoin, OperationMeta, Plan } from '../ledger/ledger.types';
import { LedgerService } from '../ledger/ledger.service';
import type { OperationFlow } from '../ledger/operation-types';
import { calculationOf } from './calculation';
import type { CommissionCalculationDto, CommissionCalculationRequestDto } from './dto/commission-calculation.dto';
import { commissionDetails, CommissionTerms, legsOf, priceOf, Quote } from './fee';
import { GateScope, LimitRow, periodStart } from './limits';
import { LimitsService } from './limits.service';
import { PricingCache } from './pricing-cache';
import { ruleInForce } from './terms';

export type { Quote } from './fee';

/** The coins of a movement as the kernel locked (or read) them. */
export type PricedCoin = Pick<LockedCoin, 'serial' | 'organization_id' | 'issuer_id' | 'currency_id' | 'fraction' | 'type'>;

/**
 * The terms a movement is priced by, read before its coins are locked: the rule in force (none: no
 * fee) and the issuer's commission coin (`collector`), which the flow locks with its own coins
 * only when a rule applies — so a movement without a fee never waits on the commission coin.
 */
export interface Pricing {
  flow: OperationFlow;
  terms: CommissionTerms | null;
  collector: string | null;
  /** The limits of the profile that prices the flow (none without a client coin), read with the terms. */
  limits: LimitRow[];
  /** The coins the terms were read for, payer first. */
  serials: string[];
}

/** Whether `pricing` was read for the request's coins, so its limits are theirs. */
function samePricedSide(pricing: Pricing, request: Omit<QuoteRequest, 'pricing'>): boolean {
  const serials = [request.payer?.serial, request.payee?.serial].filter((s): s is string => !!s);
  return serials.length === pricing.serials.length && serials.every((s, i) => s === pricing.serials[i]);
}

/** What a fee is asked for: the flow, the amount the payer asked to move, and the coins (the payer's or the payee's may be outside the service). */
export interface QuoteRequest {
  flow: OperationFlow;
  amount: Money;
  payer?: PricedCoin;
  payee?: PricedCoin;
  /** Terms already read (`pricing()`); else they are read now. */
  pricing?: Pricing;
  /** A gate flow's provider and transaction type: the limits of its gate commission profile apply too. */
  gate?: GateScope;
}

/**
 * Pricing has one home: every flow's `…/calculate` and its execution ask `quote()`, so what a
 * client is shown and what is posted can never drift; the fee maths are the pure `fee.ts`.
 *
 * Which rule applies: the contract of the payer's organization (of the payee's when the payer is
 * not a client coin — a bank top-up's bank), its profile for the flow and the coin's issuer, the
 * active rule whose [beginDate, endDate) holds the transaction's time, and the condition whose
 * [beginAmount, endAmount) holds the amount. Missing any of them, the fee is zero.
 */
@Injectable()
export class CommissionsService {
  constructor(
    private readonly cache: PricingCache,
    private readonly ledger: LedgerService,
    private readonly limits: LimitsService,
  ) {}

  /**
   * The terms of a flow between two coins (serials, either may be absent): from memory when the coins, the deciding
   * contract and its profiles are known (PricingCache), else read in one statement. When a rule applies, its issuer's
   * commission coin exists afterwards.
   */
  async pricing(flow: OperationFlow, payer: string | null | undefined, payee: string | null | undefined): Promise<Pricing> {
    const serials = [payer, payee].filter((s): s is string => !!s);
    const { coins, side, profiles } = serials.length ? await this.cache.terms(flow, serials) : { coins: [], side: undefined, profiles: [] };
    if (!side) return { flow, terms: null, collector: null, limits: [], serials };
    const now = new Date();
    const limits: LimitRow[] = profiles
      .flatMap((p) => p.limits)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((l) => ({
        ...l,
        organization_id: side.organization_id!,
        period_start: periodStart(l.time_unit, now),
        code: side.code,
        fraction: side.fraction,
      }));
    const rule = ruleInForce(
      profiles,
      coins.map((c) => c.issuer_id),
      now.getTime(),
    );
    if (!rule) return { flow, terms: null, collector: null, limits, serials };
    const terms: CommissionTerms = {
      ruleId: rule.id,
      payer: rule.payer,
      conditions: rule.conditions.map((c) => ({
        id: c.id,
        beginAmount: new Money(c.beginAmount),
        endAmount: c.endAmount === null ? null : new Money(c.endAmount),
        value: {
          type: c.type,
          percent: c.valuePercent === null ? null : new Money(c.valuePercent),
          fixed: c.valueFixed === null ? null : new Money(c.valueFixed),
          rounding: c.rounding,
          minFee: c.minFee === null ? null : new Money(c.minFee),
        },
      })),
    };
    return { flow, terms, collector: await this.ledger.systemCoin(side.issuer_id, 'commission'), limits, serials };
  }

  /**
   * The price of a movement, rounded to the currency of the payer's coin (or the payee's). Inside a posting's plan it
   * also enforces the limit profiles of the profile that prices it (LimitsService): a 409 naming the limit.
   */
  async quote(request: QuoteRequest): Promise<Quote> {
    const coin = request.payer ?? request.payee;
    if (!coin) throw new Error('A quote needs the payer’s or the payee’s coin');
    const pricing = request.pricing ?? (await this.pricing(request.flow, request.payer?.serial, request.payee?.serial));
    if (pricing.flow !== request.flow) throw new Error(`Terms of ${pricing.flow} cannot price ${request.flow}`);
    const quote = priceOf(pricing.terms, request.amount, scaleOf(coin.fraction));
    await this.limit(request, pricing);
    return quote;
  }

  /**
   * The limits of a posting (a 409 naming the one it would pass), counted with it: `quote()` calls it; a flow that
   * priced its movement before its plan calls it from the plan. Outside a plan it does nothing.
   */
  limit(request: Omit<QuoteRequest, 'pricing'>, pricing?: Pricing): Promise<void> {
    const serials = [request.payer, request.payee].filter((c) => c?.type === 'client').map((c) => c!.serial);
    // The limits read with the terms, when they were read for these coins; a gate flow's add its gate profile's.
    const limits = pricing && !request.gate && samePricedSide(pricing, request) ? pricing.limits : undefined;
    return this.limits.enforce({ flow: request.flow, amount: request.amount, serials, gate: request.gate, limits });
  }

  /**
   * `POST /commissions/calculate`: the price of a flow between client coins, without moving money.
   * A technical coin on either side is a 400 (specification section 7), an unknown one a 404.
   */
  async calculate(dto: CommissionCalculationRequestDto): Promise<CommissionCalculationDto> {
    if (!dto.payerCoin && !dto.payeeCoin) throw ApiError.invalid('payeeCoin', 'or payerCoin must be given');
    const coins = await this.ledger.read([dto.payerCoin, dto.payeeCoin].filter((s): s is string => !!s));
    const side = (serial: string | undefined, parameter: string) => {
      if (!serial) return undefined;
      const coin = coins.get(serial);
      if (!coin) throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
      if (coin.type !== 'client') throw ApiError.invalid(parameter, 'must not be a technical coin');
      return coin;
    };
    const payer = side(dto.payerCoin, 'payerCoin');
    const payee = side(dto.payeeCoin, 'payeeCoin');
    if (payer && payee && payer.currency_id !== payee.currency_id)
      throw ApiError.invalid('payeeCoin', 'must hold the currency of payerCoin');
    const coin = (payer ?? payee)!;
    const scale = scaleOf(coin.fraction);
    const amount = parseAmount(dto.amount, scale);
    const quote = await this.quote({ flow: dto.flow, amount, payer, payee });
    return {
      ...calculationOf(amount, quote, coin, { type: 'COIN', srcValue: dto.payerCoin ?? null, destValue: dto.payeeCoin ?? null }),
      flow: dto.flow,
      currency: coin.code,
      amount: amountOf(amount, scale),
      commission: amountOf(quote.commission, scale),
      payerAmount: amountOf(quote.payerAmount, scale),
      payeeAmount: amountOf(quote.payeeAmount, scale),
      payer: quote.payer,
      ruleId: quote.ruleId,
    };
  }

  /** The coins a flow locks for its fee: the commission coin when a rule applies. */
  collectors(pricing: Pricing): string[] {
    return pricing.collector ? [pricing.collector] : [];
  }

  /** The legs of a priced movement: the payee's share, and the fee to the commission coin. */
  legs(quote: Quote, payer: string, payee: string, pricing: Pricing): Leg[] {
    return legsOf(quote, payer, payee, pricing.collector);
  }

  /**
   * The plan of a priced movement of `amount` from `payer` to `payee`: its legs (the fee's among them) and what the
   * operation says of itself — the amount, the fee and the rule that priced it (in `details`, beside the flow's own).
   */
  pricedPlan(
    quote: Quote,
    amount: Money,
    payer: string,
    payee: string,
    pricing: Pricing,
    meta: Omit<OperationMeta, 'amount' | 'commission' | 'fromCoin' | 'toCoin'> & Pick<Plan, 'records'> = {},
  ): Plan {
    const fee = commissionDetails(quote);
    // Each key named rather than the caller's object spread (`{ ...meta, amount }`): V8 copies an object spread followed
    // by more keys through a slow path, microseconds a call on a transfer's path. Typed so that a key a flow's meta
    // gains and this does not copy fails to compile.
    const own: { [K in keyof Required<typeof meta>]: (typeof meta)[K] } = {
      currencyId: meta.currencyId,
      description: meta.description,
      customInformation: meta.customInformation,
      requestStatus: meta.requestStatus,
      details: meta.details,
      records: meta.records,
    };
    const plan: Plan = {
      legs: this.legs(quote, payer, payee, pricing),
      meta: {
        currencyId: own.currencyId,
        description: own.description,
        customInformation: own.customInformation,
        requestStatus: own.requestStatus,
        amount,
        commission: quote.commission,
        fromCoin: payer,
        toCoin: payee,
        details: own.details || fee ? { ...own.details, ...fee } : undefined,
      },
    };
    if (own.records) plan.records = own.records;
    return plan;
  }
}
