import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { calculationOf } from '../../platform/commissions/calculation';
import { CommissionsService, Pricing, Quote } from '../../platform/commissions/commissions.service';
import { commissionDetails } from '../../platform/commissions/fee';
import type { PricedCoinRow } from '../../platform/commissions/commissions.repository';
import { PricingCache } from '../../platform/commissions/pricing-cache';
import { ExchangeRatesService, rateOf, RateInForce } from '../exchange-rates/exchange-rates.service';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import type { Leg, Locked, LockedCoin } from '../../platform/ledger/ledger.types';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import { Conversion, convert } from './conversion';
import type {
  ExchangeCalculationDto,
  ExchangeCalculatorDto,
  ExchangeRequestDto,
  ExchangeTermsDto,
  ReserveFundingDto,
} from './dto/exchange.dto';
import { ExchangeRepository } from './exchange.repository';

/**
 * What an exchange's rules read of a coin: its kind, owner, issuer and currency, none of which ever changes — so a coin
 * PricingCache keeps serves as well as one read or locked.
 */
type ExchangeCoin = PricedCoinRow;

/** What an exchange converts at the rate in force, over two coins in different currencies. */
interface Rated {
  rate: RateInForce;
  conversion: Conversion;
}

/** An exchange as its rules decide it over the coins read or locked. */
interface Priced extends Rated {
  source: LockedCoin;
  target: LockedCoin;
  /** The fee in the source currency, always on top of the sold amount: payerAmount = sell + commission. */
  quote: Quote;
}

/**
 * Exchanges between two client coins of the caller's organization in different currencies, in one
 * ledger operation of type `exchange`: the sold amount goes from the source coin to the source
 * issuer's `exchange_reserve` coin, the bought amount comes from the target issuer's reserve to the
 * target coin — one balanced leg per currency — plus the fee's leg to the source issuer's
 * commission coin when the `exchange` flow's rule charges one.
 */
@Injectable()
export class ExchangeService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly tools: PaymentToolsService,
    private readonly commissions: CommissionsService,
    private readonly rates: ExchangeRatesService,
    private readonly exchange: ExchangeRepository,
    private readonly kept: PricingCache,
  ) {}

  /** What an exchange would sell, buy and cost, without moving money (the reserve's funds are checked only when it runs). */
  async calculate(principal: Principal, dto: ExchangeRequestDto): Promise<ExchangeCalculationDto> {
    this.distinct(dto);
    return calculationOfExchange(
      dto,
      await this.price(principal, dto, { coins: await this.ledger.read([dto.fromCoin, dto.toCoin]), holds: [] }),
    );
  }

  /** The calculation with the names the family's web client reads: topUpAmount, withdrawAmount, exchangeRate. */
  async calculator(principal: Principal, dto: ExchangeRequestDto): Promise<ExchangeCalculatorDto> {
    this.distinct(dto);
    const priced = await this.price(principal, dto, { coins: await this.ledger.read([dto.fromCoin, dto.toCoin]), holds: [] });
    const calculation = calculationOfExchange(dto, priced);
    const { source, target, quote, conversion } = priced;
    return {
      ...calculation,
      topUpAmount: amountOf(conversion.buy, scaleOf(target.fraction)),
      withdrawAmount: amountOf(quote.payerAmount, scaleOf(source.fraction)),
      exchangeRate: {
        id: calculation.rateId,
        rate: calculation.rate,
        inIssuer: { id: source.issuer_id, sn: Number(source.issuer_sn), currency: source.code, symbol: source.symbol },
        outIssuer: { id: target.issuer_id, sn: Number(target.issuer_sn), currency: target.code, symbol: target.symbol },
      },
    };
  }

  async execute(principal: Principal, dto: ExchangeRequestDto): Promise<{ process: OperationDto; exchange: ExchangeTermsDto }> {
    this.distinct(dto);
    // Checked first: ownership and currencies decide which reserves to lock (404/400/409 before any lock).
    const read = await this.checked(principal, dto);
    const sourceReserve = await this.ledger.systemCoin(read.source.issuer_id, 'exchange_reserve');
    const targetReserve = await this.ledger.systemCoin(read.target.issuer_id, 'exchange_reserve');
    const pricing = await this.commissions.pricing('exchange', dto.fromCoin, dto.toCoin);
    let terms: ExchangeTermsDto | undefined;
    // Then one grouped posting (its plan reads nothing more: the rate in force was found with the coins).
    const posted = await this.ledger.execute({
      type: 'exchange',
      coins: [dto.fromCoin, dto.toCoin, sourceReserve, targetReserve, ...this.commissions.collectors(pricing)],
      grouped: true,
      plan: async (locked) => {
        const priced = await this.price(principal, dto, locked, pricing, read);
        const { source, target, conversion, quote } = priced;
        for (const coin of [source, target]) {
          if (!coin.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
        }
        // A reserve is a system coin, which the kernel lets go negative unless a plan says it is `funded`: the exchange
        // refuses to overdraw it with its own answer, and names it funded so that the kernel holds the group to it too.
        const reserve = locked.coins.get(targetReserve)!;
        if (new Money(reserve.balance).minus(reserve.held).lt(conversion.buy)) {
          throw new ApiError(
            'exception.exchange.reserve_insufficient',
            `The ${target.code} exchange reserve cannot pay out ${conversion.buy.toFixed(scaleOf(target.fraction))} ${target.code}`,
          );
        }
        terms = termsOf(dto, priced);
        const [sold, ...fee] = this.commissions.legs(quote, source.serial, sourceReserve, pricing);
        const legs: Leg[] = [sold, { from: targetReserve, to: target.serial, amount: conversion.buy }, ...fee];
        return {
          legs,
          // Checked again by the kernel on the reserve as it is when written: a group reads it without a lock.
          funded: [targetReserve],
          meta: {
            amount: conversion.sell,
            commission: quote.commission,
            fromCoin: source.serial,
            toCoin: target.serial,
            description: dto.description ?? null,
            customInformation: dto.customInformation ?? null,
            details: {
              exchange: {
                direction: dto.direction,
                sellAmount: conversion.sell.toFixed(),
                sellCurrency: source.code,
                buyAmount: conversion.buy.toFixed(),
                buyCurrency: target.code,
                rate: priced.rate.rate.toFixed(),
                rateId: priced.rate.id,
                sourceReserve,
                targetReserve,
              },
              ...commissionDetails(quote),
            },
          },
        };
      },
    });
    return { process: posted!, exchange: terms! };
  }

  /** Staff move money from an issuer's bank-settlement coin to its exchange reserve (operation `reserve_funding`). */
  async fundReserve(dto: ReserveFundingDto): Promise<OperationDto> {
    const issuer = await this.exchange.issuer(dto.issuerId);
    if (!issuer) throw new ApiError('exception.issuer.not_found', `No issuer ${dto.issuerId}`);
    if (!issuer.usable) throw new ApiError('exception.issuer.inactive', `Issuer ${dto.issuerId} or its currency is inactive`);
    const amount = parseAmount(dto.amount, scaleOf(issuer.fraction));
    const settlement = await this.ledger.systemCoin(issuer.id, 'bank_settlement');
    const reserve = await this.ledger.systemCoin(issuer.id, 'exchange_reserve');
    const posted = await this.ledger.execute({
      type: 'reserve_funding',
      coins: [settlement, reserve],
      plan: () => ({
        legs: [{ from: settlement, to: reserve, amount }],
        meta: {
          amount,
          fromCoin: settlement,
          toCoin: reserve,
          description: dto.description ?? `Funding of the ${issuer.code} exchange reserve`,
          customInformation: dto.customInformation ?? null,
        },
      }),
    });
    return posted!;
  }

  private distinct(dto: ExchangeRequestDto): void {
    if (dto.fromCoin === dto.toCoin) throw ApiError.invalid('toCoin', 'must be another coin than fromCoin');
  }

  /**
   * The rules an exchange passes before it locks anything, over its coins as kept (PricingCache: a known coin runs no
   * statement) or else read: both the caller's client coins (a technical coin is a 400, another's or an unknown one a
   * 404, as PaymentToolsService.payer answers), two currencies, the rate in force (kept too: RatesInForce), the amounts.
   * The fee's own refusal, and whether the coins are usable, are the plan's, which checks the locked coins again.
   */
  private async checked(principal: Principal, dto: ExchangeRequestDto): Promise<Rated & { source: ExchangeCoin; target: ExchangeCoin }> {
    const serials = [dto.fromCoin, dto.toCoin];
    const known = this.kept.knownCoins(serials);
    const coins: ReadonlyMap<string, ExchangeCoin> = known ? new Map(known.map((c) => [c.serial, c])) : await this.ledger.read(serials);
    const own = (serial: string, parameter: string): ExchangeCoin => {
      const coin = coins.get(serial);
      if (coin?.type === 'system') throw ApiError.invalid(parameter, 'must not be a technical coin');
      if (!coin || coin.organization_id !== principal.organizationId) throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
      return coin;
    };
    const source = own(dto.fromCoin, 'fromCoin');
    const target = own(dto.toCoin, 'toCoin');
    return { source, target, ...(await this.rated(dto, source, target)) };
  }

  /** Two currencies (a code names one currency for good), the rate in force between them and the amounts it converts. */
  private async rated(dto: ExchangeRequestDto, source: ExchangeCoin, target: ExchangeCoin): Promise<Rated> {
    if (source.code === target.code) throw ApiError.invalid('toCoin', 'must hold another currency than fromCoin');
    const rate = await this.rates.inForce(source.code, target.code);
    const sellScale = scaleOf(source.fraction);
    const buyScale = scaleOf(target.fraction);
    const amount = parseAmount(dto.amount, dto.direction === 'sell' ? sellScale : buyScale);
    return { rate, conversion: convert(dto.direction, amount, rate.rate, sellScale, buyScale) };
  }

  /** The rules over the two coins as read (or locked): both the caller's client coins, two currencies, the rate, the amounts, the fee. */
  private async price(principal: Principal, dto: ExchangeRequestDto, locked: Locked, pricing?: Pricing, read?: Rated): Promise<Priced> {
    const source = this.tools.payer(locked, dto.fromCoin, principal, 'fromCoin');
    const target = this.tools.payer(locked, dto.toCoin, principal, 'toCoin');
    // Rated before the group (`checked`) over the same two coins, whose currencies never change: not converted again.
    const { rate, conversion } = read ?? (await this.rated(dto, source, target));
    // The target names the currency bought, which a multi-currency commission profile is chosen by.
    const quoted = await this.commissions.quote({ flow: 'exchange', amount: conversion.sell, payer: source, payee: target, pricing });
    // Both coins are the caller's: the fee is always added to what leaves the source coin, whoever the rule names as payer.
    // Each key named, not `{ ...quoted, payerAmount }` (V8 copies a spread followed by more keys through a slow path).
    const { commission, payer, ruleId, conditionId } = quoted;
    const quote: Quote = {
      commission,
      payer,
      ruleId,
      conditionId,
      payerAmount: conversion.sell.plus(commission),
      payeeAmount: conversion.sell,
    };
    return { source, target, rate, conversion, quote };
  }
}

function termsOf(dto: ExchangeRequestDto, priced: Priced): ExchangeTermsDto {
  const { source, target, rate, conversion, quote } = priced;
  const sellScale = scaleOf(source.fraction);
  return {
    direction: dto.direction,
    sellAmount: amountOf(conversion.sell, sellScale),
    sellCurrency: source.code,
    buyAmount: amountOf(conversion.buy, scaleOf(target.fraction)),
    buyCurrency: target.code,
    rate: rateOf(rate.rate),
    rateId: rate.id,
    rateValidFrom: rate.validFrom.toISOString(),
    commission: amountOf(quote.commission, sellScale),
  };
}

/** What `POST /exchange/calculate` answers, from the priced exchange. */
function calculationOfExchange(dto: ExchangeRequestDto, priced: Priced): ExchangeCalculationDto {
  const { source, quote, conversion } = priced;
  const terms = termsOf(dto, priced);
  return {
    ...calculationOf(conversion.sell, quote, source, { type: 'COIN', srcValue: dto.fromCoin, destValue: dto.toCoin }),
    direction: terms.direction,
    sellAmount: terms.sellAmount,
    sellCurrency: terms.sellCurrency,
    buyAmount: terms.buyAmount,
    buyCurrency: terms.buyCurrency,
    rate: terms.rate,
    rateId: terms.rateId,
    rateValidFrom: terms.rateValidFrom,
    commission: terms.commission,
  };
}
