import fc from 'fast-check';
import { Money } from '../common/money';
import type { Locked, LockedCoin } from '../ledger/ledger.types';
import { lockedCoin } from '../ledger/locked-coin.fixture';
import { applyPlan } from '../ledger/plan';
import { overlappingRanges } from './commission-rules';
import {
  COMMISSION_PAYERS,
  COMMISSION_TYPES,
  CommissionPayer,
  CommissionCondition,
  CommissionTerms,
  CommissionType,
  CommissionValue,
  conditionFor,
  FEE_ROUNDINGS,
  FeeRounding,
  feeOf,
  legsOf,
  priceOf,
} from './fee';

const m = (v: string) => new Money(v);
const value = (
  type: CommissionType,
  percent: string | null,
  fixed: string | null,
  rounding: FeeRounding = 'half_up',
  minFee: string | null = null,
): CommissionValue => ({
  type,
  percent: percent === null ? null : m(percent),
  fixed: fixed === null ? null : m(fixed),
  rounding,
  minFee: minFee === null ? null : m(minFee),
});
const condition = (id: string, begin: string, end: string | null, v = value('zero', null, null)): CommissionCondition => ({
  id,
  beginAmount: m(begin),
  endAmount: end === null ? null : m(end),
  value: v,
});
const fee = (type: CommissionType, percent: string | null, fixed: string | null, amount: string, scale: number) =>
  feeOf(value(type, percent, fixed), m(amount), scale).toFixed();

/** One test per row: a rule's type, percent and fixed part, an amount, and the fee it costs at `scale` decimals. */
function feeCases(scale: number, rows: readonly (readonly [CommissionType, string | null, string | null, string, string])[]) {
  it.each(rows)('%s (%s %%, fixed %s) of %s is %s', (type, percent, fixed, amount, expected) => {
    expect(fee(type, percent, fixed, amount, scale)).toBe(expected);
  });
}

describe('commission fees', () => {
  describe('each type at fraction 100 (two decimals)', () =>
    feeCases(2, [
      ['zero', null, null, '100.00', '0'],
      ['percent', '1.5', null, '100.00', '1.5'],
      // 0.5 % of 1.01 is 0.00505: rounded half up to 0.01
      ['percent', '0.5', null, '1.01', '0.01'],
      // 0.5 % of 0.99 is 0.00495: rounded down to 0
      ['percent', '0.5', null, '0.99', '0'],
      // exactly half a cent: up
      ['percent', '0.5', null, '1.00', '0.01'],
      ['fixed', null, '0.30', '100.00', '0.3'],
      ['fixed', null, '0.30', '0.01', '0.3'],
      ['greater_of_fixed_or_percent', '1', '0.50', '10.00', '0.5'],
      ['greater_of_fixed_or_percent', '1', '0.50', '50.00', '0.5'],
      ['greater_of_fixed_or_percent', '1', '0.50', '50.01', '0.5'],
      ['greater_of_fixed_or_percent', '1', '0.50', '51.00', '0.51'],
      ['lesser_of_fixed_or_percent', '1', '0.50', '10.00', '0.1'],
      ['lesser_of_fixed_or_percent', '1', '0.50', '50.00', '0.5'],
      ['lesser_of_fixed_or_percent', '1', '0.50', '51.00', '0.5'],
      ['fixed_and_percent', '2', '0.25', '10.00', '0.45'],
      ['fixed_and_percent', '2.5', '0.25', '0.01', '0.25'],
      ['percent', '100', null, '12345678901234567.89', '12345678901234567.89'],
      ['percent', '0', null, '99.99', '0'],
    ]));

  describe('each type at fraction 1 (whole units)', () =>
    feeCases(0, [
      ['zero', null, null, '7', '0'],
      // 2.5 % of 20 is 0.5: half up to 1
      ['percent', '2.5', null, '20', '1'],
      ['percent', '2.5', null, '19', '0'],
      ['fixed', null, '3', '1', '3'],
      ['greater_of_fixed_or_percent', '10', '2', '25', '3'],
      ['greater_of_fixed_or_percent', '10', '2', '14', '2'],
      ['lesser_of_fixed_or_percent', '10', '2', '14', '1'],
      ['lesser_of_fixed_or_percent', '10', '2', '26', '2'],
      ['fixed_and_percent', '10', '2', '15', '4'],
    ]));

  describe('each type at fraction 10^18', () =>
    feeCases(18, [
      ['zero', null, null, '1', '0'],
      ['percent', '1', null, '0.000000000000000001', '0'],
      ['percent', '50', null, '0.000000000000000001', '0.000000000000000001'],
      ['percent', '49.999999999999999999', null, '0.000000000000000001', '0'],
      ['percent', '0.000000000000000001', null, '100', '0.000000000000000001'],
      ['percent', '0.000000000000000001', null, '99999999999999999999', '1'],
      ['fixed', null, '0.000000000000000003', '5', '0.000000000000000003'],
      ['greater_of_fixed_or_percent', '1', '0.000000000000000001', '0.000000000000000099', '0.000000000000000001'],
      ['lesser_of_fixed_or_percent', '1', '0.000000000000000001', '0.000000000000000150', '0.000000000000000001'],
      ['lesser_of_fixed_or_percent', '1', '0.000000000000000005', '0.000000000000000150', '0.000000000000000002'],
      ['fixed_and_percent', '1', '0.000000000000000001', '0.000000000000000150', '0.000000000000000003'],
    ]));

  // A condition [10, 20) of each type (2.5 %, fixed 0.3 — 3 in whole units): nothing just below 10 nor at 20.
  const AT_EDGES: Record<CommissionType, [string, string]>[] = [
    // fraction 1: 2.5 % of 10 is 0.25 → 0, of 19 is 0.475 → 0
    {
      zero: ['0', '0'],
      percent: ['0', '0'],
      fixed: ['3', '3'],
      greater_of_fixed_or_percent: ['3', '3'],
      lesser_of_fixed_or_percent: ['0', '0'],
      fixed_and_percent: ['3', '3'],
    },
    // fraction 100: of 10 is 0.25, of 19.99 is 0.49975 → 0.5
    {
      zero: ['0', '0'],
      percent: ['0.25', '0.5'],
      fixed: ['0.3', '0.3'],
      greater_of_fixed_or_percent: ['0.3', '0.5'],
      lesser_of_fixed_or_percent: ['0.25', '0.3'],
      fixed_and_percent: ['0.55', '0.8'],
    },
    // fraction 10^18: of 19.999999999999999999 is 0.499999999999999999975 → 0.5 (half up at the 18th decimal)
    {
      zero: ['0', '0'],
      percent: ['0.25', '0.5'],
      fixed: ['0.3', '0.3'],
      greater_of_fixed_or_percent: ['0.3', '0.5'],
      lesser_of_fixed_or_percent: ['0.25', '0.3'],
      fixed_and_percent: ['0.55', '0.8'],
    },
  ];
  describe.each([
    [1, 0, '9', '19', AT_EDGES[0]],
    [100, 2, '9.99', '19.99', AT_EDGES[1]],
    [10 ** 18, 18, '9.999999999999999999', '19.999999999999999999', AT_EDGES[2]],
  ])('at the edges of a condition [10, 20), fraction %s', (_, scale, below, last, expected) => {
    it.each(COMMISSION_TYPES)('%s: nothing below 10, its fee from 10 to just under 20, nothing from 20', (type) => {
      const terms: CommissionTerms = {
        ruleId: 'r',
        payer: 'sender',
        conditions: [condition('c', '10', '20', value(type, '2.5', scale === 0 ? '3' : '0.3'))],
      };
      const feeAt = (amount: string) => priceOf(terms, m(amount), scale).commission.toFixed();
      expect([feeAt(below), feeAt('10'), feeAt(last), feeAt('20')]).toEqual(['0', ...expected[type], '0']);
    });
  });

  describe('rounding up and a minimum fee (issue 29)', () => {
    it.each([
      // 1 % of 0.49 is 0.0049: nothing half up, a cent up
      ['percent', '1', null, 'half_up', null, '0.49', 2, '0'],
      ['percent', '1', null, 'up', null, '0.49', 2, '0.01'],
      // 1 % of 0.01 is 0.0001
      ['percent', '1', null, 'up', null, '0.01', 2, '0.01'],
      // already on a cent: up changes nothing
      ['percent', '1', null, 'up', null, '100.00', 2, '1'],
      ['percent', '1.5', null, 'up', null, '100.00', 2, '1.5'],
      // 0.5 % of 1.01 is 0.00505: 0.01 either way; of 1.99 is 0.00995: 0.01 either way; of 2.01 is 0.01005: 0.01 half up, 0.02 up
      ['percent', '0.5', null, 'half_up', null, '2.01', 2, '0.01'],
      ['percent', '0.5', null, 'up', null, '2.01', 2, '0.02'],
      ['fixed_and_percent', '1', '0.10', 'up', null, '0.49', 2, '0.11'],
      ['lesser_of_fixed_or_percent', '1', '0.50', 'up', null, '10.01', 2, '0.11'],
      // whole units: 2.5 % of 19 is 0.475 → 0 half up, 1 up
      ['percent', '2.5', null, 'up', null, '19', 0, '1'],
      ['percent', '1', null, 'up', null, '0.000000000000000001', 18, '0.000000000000000001'],
      // a minimum fee: the larger of it and the type's fee
      ['percent', '1', null, 'half_up', '0.05', '0.49', 2, '0.05'],
      ['percent', '1', null, 'up', '0.05', '0.49', 2, '0.05'],
      ['percent', '1', null, 'half_up', '0.05', '100.00', 2, '1'],
      ['percent', '1', null, 'half_up', '0.05', '5.00', 2, '0.05'],
      ['percent', '1', null, 'half_up', '0.05', '5.01', 2, '0.05'],
      ['percent', '1', null, 'half_up', '0.05', '5.50', 2, '0.06'],
      ['fixed', null, '0.30', 'half_up', '0.50', '100.00', 2, '0.5'],
      ['lesser_of_fixed_or_percent', '1', '0.50', 'half_up', '0.20', '10.00', 2, '0.2'],
      ['percent', '1', null, 'half_up', '0', '0.49', 2, '0'],
      // a minimum with more decimals than the currency (a gate rule's, for any of its products' currencies) is met: rounded up
      ['percent', '1', null, 'half_up', '0.004', '0.10', 2, '0.01'],
      ['percent', '1', null, 'up', '0.004', '0.10', 2, '0.01'],
    ] as const)(
      '%s (%s %%, fixed %s) rounded %s, at least %s, of %s at scale %s is %s',
      (type, percent, fixed, rounding, minFee, amount, scale, expected) => {
        expect(feeOf(value(type, percent, fixed, rounding, minFee), m(amount), scale).toFixed()).toBe(expected);
      },
    );

    it('a payment split into parts of one cent pays a cent on each part under 1 % up, nothing under half up', () => {
      const parts = Array.from({ length: 100 }, () => m('0.01'));
      const total = (rounding: FeeRounding) =>
        parts.reduce((sum, part) => sum.plus(feeOf(value('percent', '1', null, rounding), part, 2)), m('0')).toFixed(2);
      expect(total('half_up')).toBe('0.00');
      expect(total('up')).toBe('1.00');
      // Whole, the payment of 1.00 pays 0.01 either way.
      expect(feeOf(value('percent', '1', null, 'half_up'), m('1.00'), 2).toFixed(2)).toBe('0.01');
    });

    it('a recipient cannot pay a minimum fee above the amount (409)', () => {
      const terms: CommissionTerms = {
        ruleId: 'r',
        payer: 'recipient',
        conditions: [condition('c', '0', null, value('percent', '1', null, 'half_up', '0.05'))],
      };
      expect(priceOf(terms, m('0.05'), 2).payeeAmount.toFixed()).toBe('0');
      expect(() => priceOf(terms, m('0.04'), 2)).toThrow(expect.objectContaining({ code: 'exception.commission.exceeds_amount' }));
    });
  });

  it('chooses the condition whose range holds the amount: begin inclusive, end exclusive, a missing end unbounded', () => {
    const conditions = [condition('a', '0', '100'), condition('b', '100', '1000'), condition('c', '1000', null)];
    const at = (amount: string) => conditionFor(conditions, m(amount))?.id;
    expect(at('0.01')).toBe('a');
    expect(at('99.99')).toBe('a');
    expect(at('100')).toBe('b');
    expect(at('999.999999999999999999')).toBe('b');
    expect(at('1000')).toBe('c');
    expect(at('99999999999999999999')).toBe('c');
    expect(conditionFor([condition('a', '10', '20')], m('9.99'))).toBeUndefined();
    expect(conditionFor([condition('a', '10', '20')], m('20'))).toBeUndefined();
  });

  describe('who pays', () => {
    const terms = (payer: CommissionPayer, v = value('percent', '1', null)): CommissionTerms => ({
      ruleId: 'r',
      payer,
      conditions: [condition('c', '0', null, v)],
    });

    it('charges the sender on top of the amount', () => {
      const quote = priceOf(terms('sender'), m('200.00'), 2);
      expect([quote.commission, quote.payerAmount, quote.payeeAmount].map((x) => x.toFixed(2))).toEqual(['2.00', '202.00', '200.00']);
      expect(quote).toMatchObject({ payer: 'sender', ruleId: 'r', conditionId: 'c' });
    });

    it('takes it from what the recipient receives; all of the amount at most (409 beyond)', () => {
      const quote = priceOf(terms('recipient'), m('200.00'), 2);
      expect([quote.commission, quote.payerAmount, quote.payeeAmount].map((x) => x.toFixed(2))).toEqual(['2.00', '200.00', '198.00']);
      const all = priceOf(terms('recipient', value('fixed', null, '5')), m('5'), 2);
      expect(all.payeeAmount.toFixed()).toBe('0');
      expect(() => priceOf(terms('recipient', value('fixed', null, '5')), m('4.99'), 2)).toThrow(
        expect.objectContaining({ code: 'exception.commission.exceeds_amount', status: 409 }),
      );
    });

    it('shares it: the sender pays half rounded up to the smallest unit, the recipient the rest (409 when the rest exceeds the amount)', () => {
      const even = priceOf(terms('shared'), m('200.00'), 2);
      expect([even.commission, even.payerAmount, even.payeeAmount].map((x) => x.toFixed(2))).toEqual(['2.00', '201.00', '199.00']);
      expect(even.payer).toBe('shared');
      // 0.03 does not halve in cents: the sender pays 0.02, the recipient 0.01.
      const odd = priceOf(terms('shared', value('fixed', null, '0.03')), m('10.00'), 2);
      expect([odd.commission, odd.payerAmount, odd.payeeAmount].map((x) => x.toFixed(2))).toEqual(['0.03', '10.02', '9.99']);
      expect(priceOf(terms('shared', value('fixed', null, '10')), m('5'), 2).payeeAmount.toFixed()).toBe('0');
      expect(() => priceOf(terms('shared', value('fixed', null, '10')), m('4.99'), 2)).toThrow(
        expect.objectContaining({ code: 'exception.commission.exceeds_amount', status: 409 }),
      );
    });

    it('is free without terms or without a condition for the amount', () => {
      for (const quote of [priceOf(null, m('5'), 2), priceOf({ ruleId: 'r', payer: 'recipient', conditions: [] }, m('5'), 2)]) {
        expect([quote.commission.toFixed(), quote.payerAmount.toFixed(), quote.payeeAmount.toFixed()]).toEqual(['0', '5', '5']);
        expect(quote.conditionId).toBeNull();
      }
    });
  });

  it('finds overlapping amount ranges, touching ones being fine', () => {
    const r = (begin: string, end: string | null) => ({ beginAmount: m(begin), endAmount: end === null ? null : m(end) });
    expect(overlappingRanges([r('0', '100'), r('100', null)])).toBeUndefined();
    expect(overlappingRanges([r('100', '200'), r('0', '100.01')])).toBeDefined();
    expect(overlappingRanges([r('500', null), r('0', '100'), r('600', '700')])).toBeDefined();
    expect(overlappingRanges([r('0', '1'), r('0', '1')])).toBeDefined();
    expect(overlappingRanges([])).toBeUndefined();
  });

  describe('properties over random rules and amounts', () => {
    const scales = [0, 2, 18];
    const decimal = (scale: number, maxUnits: bigint) =>
      fc.bigInt({ min: 0n, max: maxUnits }).map((units) => new Money(units.toString()).dividedBy(new Money(10).pow(scale)));
    const scenario = fc.constantFrom(...scales).chain((scale) =>
      fc.record({
        scale: fc.constant(scale),
        type: fc.constantFrom(...COMMISSION_TYPES),
        percent: decimal(18, 100n * 10n ** 18n).map((p) => p),
        fixed: decimal(scale, 10n ** 12n),
        rounding: fc.constantFrom(...FEE_ROUNDINGS),
        minFee: fc.option(decimal(scale, 10n ** 12n), { nil: null }),
        amount: decimal(scale, 10n ** BigInt(19 + scale)).filter((a) => a.gt(0)),
        payer: fc.constantFrom(...COMMISSION_PAYERS),
        balance: decimal(scale, 10n ** BigInt(19 + scale)),
      }),
    );
    // A zero commission carries no minimum fee (refused on input).
    const valueOf = (s: { type: CommissionType; percent: Money; fixed: Money; rounding: FeeRounding; minFee: Money | null }) =>
      value(s.type, s.percent.toFixed(), s.fixed.toFixed(), s.rounding, s.type === 'zero' ? null : (s.minFee?.toFixed() ?? null));
    const coin = (serial: string, type: 'client' | 'system', balance: string): LockedCoin =>
      lockedCoin(serial, {
        issuer_id: 'i',
        currency_id: 'cur',
        code: 'X',
        symbol: null,
        fraction: '1',
        type,
        system_kind: type === 'system' ? 'commission' : null,
        balance,
      });

    it('payer debit = payee credit + fee exactly, the fee is never negative nor finer than the currency, and the legs balance', () => {
      fc.assert(
        fc.property(scenario, (s) => {
          const terms: CommissionTerms = {
            ruleId: 'r',
            payer: s.payer,
            conditions: [condition('c', '0', null, valueOf(s))],
          };
          let quote;
          try {
            quote = priceOf(terms, s.amount, s.scale);
          } catch (error) {
            // Only a recipient (alone or sharing the fee) can be asked for more than the amount.
            expect(s.payer).not.toBe('sender');
            expect((error as { code: string }).code).toBe('exception.commission.exceeds_amount');
            return;
          }
          expect(quote.commission.isNegative()).toBe(false);
          expect(quote.commission.decimalPlaces()).toBeLessThanOrEqual(s.scale);
          expect(quote.payerAmount.eq(quote.payeeAmount.plus(quote.commission))).toBe(true);
          if (s.payer !== 'shared') expect((s.payer === 'sender' ? quote.payeeAmount : quote.payerAmount).eq(s.amount)).toBe(true);
          // Shared: the sender's part is the fee's half rounded up, the recipient's the rest, neither finer than the currency.
          else
            expect(quote.payerAmount.minus(s.amount).eq(quote.commission.dividedBy(2).toDecimalPlaces(s.scale, Money.ROUND_UP))).toBe(true);

          // Through the kernel's own checks: the legs balance and debit exactly payerAmount, or are refused for funds.
          const locked: Locked = {
            coins: new Map([
              ['1', coin('1', 'client', s.balance.toFixed())],
              ['2', coin('2', 'client', '0')],
              ['3', coin('3', 'system', '0')],
            ]),
            holds: [],
          };
          let effect;
          try {
            effect = applyPlan(locked, { legs: legsOf(quote, '1', '2', '3'), meta: { amount: s.amount } });
          } catch (error) {
            expect((error as { code: string }).code).toBe('exception.coin.insufficient_funds');
            expect(quote.payerAmount.gt(s.balance)).toBe(true);
            return;
          }
          expect(quote.payerAmount.lte(s.balance)).toBe(true);
          const change = (serial: string) => effect.changes.find((c) => c.serial === serial)?.balance ?? new Money(0);
          expect(change('1').negated().eq(quote.payerAmount)).toBe(true);
          expect(change('2').eq(quote.payeeAmount)).toBe(true);
          expect(change('3').eq(quote.commission)).toBe(true);
          expect(effect.entries.reduce((sum, e) => sum.plus(e.amount), new Money(0)).isZero()).toBe(true);
        }),
        { numRuns: 500 },
      );
    });

    it('a fee grows with the amount under every type (never less for more)', () => {
      fc.assert(
        fc.property(scenario, decimal(2, 10n ** 6n), (s, extra) => {
          const v = valueOf(s);
          expect(feeOf(v, s.amount.plus(extra), s.scale).gte(feeOf(v, s.amount, s.scale))).toBe(true);
        }),
      );
    });

    it('rounding up never charges less than half up, nor more than one smallest unit more; a minimum fee is always met', () => {
      fc.assert(
        fc.property(scenario, (s) => {
          const up = feeOf({ ...valueOf(s), rounding: 'up' }, s.amount, s.scale);
          const halfUp = feeOf({ ...valueOf(s), rounding: 'half_up' }, s.amount, s.scale);
          expect(up.gte(halfUp)).toBe(true);
          expect(up.minus(halfUp).lte(new Money(1).dividedBy(new Money(10).pow(s.scale)))).toBe(true);
          const { minFee } = valueOf(s);
          if (minFee) expect(feeOf(valueOf(s), s.amount, s.scale).gte(minFee)).toBe(true);
          // Up, a positive share of any positive amount is never free.
          if (s.type === 'percent' && s.percent.gt(0)) expect(up.gt(0)).toBe(true);
        }),
      );
    });
  });
});
