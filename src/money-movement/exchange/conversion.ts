import { ApiError } from '../../platform/common/api-error';
import { Money } from '../../platform/common/money';

export const EXCHANGE_DIRECTIONS = ['sell', 'buy'] as const;
/** `sell`: the amount is what the source coin gives; `buy`: the amount is what the target coin receives. */
export type ExchangeDirection = (typeof EXCHANGE_DIRECTIONS)[number];

/** The two sides of an exchange: what is sold (source currency) and what is bought (target currency). */
export interface Conversion {
  sell: Money;
  buy: Money;
}

/**
 * Converts an amount at `rate` (units of the target currency one unit of the source currency buys),
 * never in the customer's favour:
 *
 * - `sell`: buy = sell × rate rounded to the target's decimals **half-even**; when that rounding went
 *   up (above the exact product), ROUND_DOWN is used instead. The customer never receives more than
 *   the exact product, and less by under one minor unit of the target currency.
 * - `buy`: sell = buy ÷ rate rounded **up** to the source's decimals (then checked: sell × rate ≥ buy,
 *   exactly). The customer never pays less than the exact quotient, and more by under one minor unit
 *   of the source currency.
 *
 * Products are exact (a rate and an amount have at most 38 significant digits each, Money carries 80);
 * a quotient is exact to 80 digits, which is enough to round it up correctly, and the check makes sure.
 * An amount that converts to nothing (less than one minor unit) is a 400 on `amount`.
 */
export function convert(direction: ExchangeDirection, amount: Money, rate: Money, sellScale: number, buyScale: number): Conversion {
  if (!rate.gt(0)) throw new Error(`An exchange rate is positive, got ${rate.toFixed()}`);
  if (direction === 'sell') {
    const exact = amount.times(rate);
    let buy = exact.toDecimalPlaces(buyScale, Money.ROUND_HALF_EVEN);
    if (buy.gt(exact)) buy = exact.toDecimalPlaces(buyScale, Money.ROUND_DOWN);
    if (buy.isZero()) throw ApiError.invalid('amount', 'is too small: it buys less than one minor unit of the target currency');
    return { sell: amount, buy };
  }
  let sell = amount.dividedBy(rate).toDecimalPlaces(sellScale, Money.ROUND_UP);
  const unit = new Money(1).dividedBy(new Money(10).pow(sellScale));
  while (sell.times(rate).lt(amount)) sell = sell.plus(unit);
  return { sell, buy: amount };
}
