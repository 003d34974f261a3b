import fc from 'fast-check';
import { ApiError } from '../../platform/common/api-error';
import { Money } from '../../platform/common/money';
import { convert } from './conversion';

const unit = (scale: number) => new Money(1).dividedBy(new Money(10).pow(scale));

describe('exchange conversion: exact, never in the customer’s favour', () => {
  it('sells at fraction 100 into 10^18: half-even, cut down when half-even went up', () => {
    // 10.01 × 1.234567890123456789 = 12.35802458013580245789: half-even gives …458 (up), so …457.
    expect(convert('sell', new Money('10.01'), new Money('1.234567890123456789'), 2, 18).buy.toFixed(18)).toBe('12.358024580135802457');
    // 1.006172839506172839 × 0.810000000000000001 = 0.815000000000000000596…: half-even 0.82 (up), so 0.81.
    expect(convert('sell', new Money('1.006172839506172839'), new Money('0.810000000000000001'), 18, 2).buy.toFixed(2)).toBe('0.81');
    // 0.5 × 0.25 = 0.125: half-even at 2 decimals is 0.12 (down already): kept.
    expect(convert('sell', new Money('0.5'), new Money('0.25'), 1, 2).buy.toFixed(2)).toBe('0.12');
    // An exact product stays.
    expect(convert('sell', new Money('2'), new Money('0.810000000000000001'), 18, 18).buy.toFixed(18)).toBe('1.620000000000000002');
  });

  it('buys: the sold amount rounds up to the source’s decimals', () => {
    expect(convert('buy', new Money('100.000000000000000001'), new Money('1.234567890123456789'), 2, 18).sell.toFixed(2)).toBe('81.01');
    expect(convert('buy', new Money('10'), new Money('0.810000000000000001'), 18, 2).sell.toFixed(18)).toBe('12.345679012345678998');
    expect(convert('buy', new Money('3'), new Money('1.5'), 0, 0).sell.toFixed(0)).toBe('2');
    expect(convert('buy', new Money('0.000000000000000007'), new Money('1.234567890123456789'), 2, 18).sell.toFixed(2)).toBe('0.01');
  });

  it('refuses an amount that buys nothing (400 on amount)', () => {
    expect(() => convert('sell', new Money('0.000000000000000001'), new Money('0.81'), 18, 2)).toThrow(ApiError);
  });

  it('holds for any amount, rate and scales: advantage ≤ 0 and above one minor unit', () => {
    const decimal = (maxInt: number, scale: number) =>
      fc
        .tuple(fc.bigInt({ min: 0n, max: BigInt(10 ** maxInt) }), fc.bigInt({ min: 0n, max: 10n ** BigInt(scale) - 1n }))
        .map(([i, f]) => new Money(`${i}.${f.toString().padStart(scale, '0')}`))
        .filter((m) => m.gt(0));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 0, max: 18 }).chain((s) => decimal(6, 18).map((r) => r.toDecimalPlaces(s, Money.ROUND_DOWN))),
        fc.constantFrom('sell', 'buy') as fc.Arbitrary<'sell' | 'buy'>,
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        (sellScale, buyScale, rate, direction, minor) => {
          if (!rate.gt(0)) return;
          const scale = direction === 'sell' ? sellScale : buyScale;
          const amount = new Money(minor.toString()).times(unit(scale));
          let result;
          try {
            result = convert(direction, amount, rate, sellScale, buyScale);
          } catch {
            // Only a sale too small to buy one minor unit is refused.
            expect(direction === 'sell' && amount.times(rate).lt(unit(buyScale))).toBe(true);
            return;
          }
          const { sell, buy } = result;
          expect(sell.decimalPlaces()).toBeLessThanOrEqual(sellScale);
          expect(buy.decimalPlaces()).toBeLessThanOrEqual(buyScale);
          // What the customer gets beyond what they paid for, in the target currency: never positive.
          const advantage = buy.minus(sell.times(rate));
          expect(advantage.lte(0)).toBe(true);
          if (direction === 'sell') {
            expect(sell.eq(amount)).toBe(true);
            expect(advantage.gt(unit(buyScale).negated())).toBe(true);
          } else {
            expect(buy.eq(amount)).toBe(true);
            // One minor unit less of the source would not have bought it.
            expect(sell.minus(unit(sellScale)).times(rate).lt(buy)).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
